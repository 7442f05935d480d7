/**
 * RunResumeState ↔ the JSON object stored as a checkpoint's `resume` metadata.
 * Decoding checks every field and names the first bad one in a CheckpointError,
 * so a corrupt file never reaches a live run.
 */
import type { JsonObject, JsonValue } from '../checkpoint/checkpoint-types';
import type { TaskEnvSnapshot } from '../envs/task-env';
import type { VectorEnvMetrics, VectorEnvSnapshot } from '../envs/vector-env';
import { formatMetricsJsonlLine, parseMetricsJsonl } from '../metrics/serialize';
import type { EvalSummaryNumbers } from '../rl/evaluate';
import { RunningMeanStd } from '../gaussian/running-mean-std';
import { count, decodeRng, encodeRng, fail, finite, list, object } from './resume-fields';
import type { RunResumeState } from './run-state';
import { base64ToFloat32, base64ToFloat64, base64ToUint8, float32ToBase64, float64ToBase64, uint8ToBase64 } from './typed-base64';

/** Bumped when the layout below changes; an unknown version is refused. */
export const RESUME_FORMAT_VERSION = 1;

function encodeEnv(env: TaskEnvSnapshot): JsonObject {
  return {
    physics: float64ToBase64(env.physics), task_state: [...env.state], elapsed_steps: env.elapsedSteps,
    episode_return: env.episodeReturn, episode_seed: env.episodeSeed, ever_succeeded: env.everSucceeded,
    qpos: float32ToBase64(env.qpos), obs: float32ToBase64(env.obs),
  };
}

function decodeEnv(value: unknown, field: string): TaskEnvSnapshot {
  const env = object(value, field);
  // Resume states written before tasks were plugins held the arm tasks' goal and rest height by name;
  // they are those tasks' task state, in that order.
  const stored = env.task_state ?? (env.goal !== undefined ? [...list(env.goal, `${field}.goal`), env.object_rest_z] : undefined);
  const state = list(stored, `${field}.task_state`).map((entry, index) => finite(entry, `${field}.task_state[${index}]`));
  if (typeof env.ever_succeeded !== 'boolean') fail(`${field}.ever_succeeded`, 'must be true or false');
  return {
    physics: base64ToFloat64(env.physics, `${field}.physics`), state,
    elapsedSteps: count(env.elapsed_steps, `${field}.elapsed_steps`), episodeReturn: finite(env.episode_return, `${field}.episode_return`),
    episodeSeed: count(env.episode_seed, `${field}.episode_seed`), everSucceeded: env.ever_succeeded,
    qpos: base64ToFloat32(env.qpos, `${field}.qpos`), obs: base64ToFloat32(env.obs, `${field}.obs`),
  };
}

function decodeMetrics(value: unknown, field: string): VectorEnvMetrics {
  const metrics = object(value, field);
  return {
    clippedActions: count(metrics.clipped_actions, `${field}.clipped_actions`),
    unstableResets: count(metrics.unstable_resets, `${field}.unstable_resets`),
    envSteps: count(metrics.env_steps, `${field}.env_steps`),
  };
}

function encodeBatch(snapshot: VectorEnvSnapshot): JsonObject {
  return {
    envs: snapshot.envs.map(encodeEnv),
    seed_streams: snapshot.seedStreams.map(encodeRng),
    metrics: { clipped_actions: snapshot.metrics.clippedActions, unstable_resets: snapshot.metrics.unstableResets, env_steps: snapshot.metrics.envSteps },
    obs: float32ToBase64(snapshot.obs),
    ...(snapshot.images ? { images: uint8ToBase64(snapshot.images) } : {}),
  };
}

function decodeBatch(value: unknown, field: string): VectorEnvSnapshot {
  const batch = object(value, field);
  const envs = list(batch.envs, `${field}.envs`).map((env, index) => decodeEnv(env, `${field}.envs[${index}]`));
  const seedStreams = list(batch.seed_streams, `${field}.seed_streams`).map((state, index) => decodeRng(state, `${field}.seed_streams[${index}]`));
  if (seedStreams.length !== envs.length) fail(`${field}.seed_streams`, `has ${seedStreams.length} entries for ${envs.length} envs`);
  return {
    envs, seedStreams, metrics: decodeMetrics(batch.metrics, `${field}.metrics`), obs: base64ToFloat32(batch.obs, `${field}.obs`),
    ...(batch.images !== undefined ? { images: base64ToUint8(batch.images, `${field}.images`) } : {}),
  };
}

function decodeEval(value: unknown): EvalSummaryNumbers | undefined {
  if (value === undefined || value === null) return undefined;
  const summary = object(value, 'last_eval');
  return {
    episodes: count(summary.episodes, 'last_eval.episodes'),
    // Absent for a task without a success rule.
    ...(summary.success_rate !== undefined ? { success_rate: finite(summary.success_rate, 'last_eval.success_rate') } : {}),
    mean_return: finite(summary.mean_return, 'last_eval.mean_return'),
    mean_length: finite(summary.mean_length, 'last_eval.mean_length'),
  };
}

export function encodeResumeState(state: RunResumeState): JsonObject {
  const encoded: JsonObject = {
    format_version: RESUME_FORMAT_VERSION,
    elapsed_s: state.elapsedSeconds,
    skip_streak: state.skipStreak,
    // One JSONL line per record keeps non-finite metrics exact (JSON has no NaN).
    history: state.history.map(formatMetricsJsonlLine),
  };
  if (state.lastEval) encoded.last_eval = { ...state.lastEval } as unknown as JsonValue;
  if (state.rollout) {
    encoded.rollout = { env_key: state.rollout.envKey, env: encodeBatch(state.rollout.env), obs_history: float32ToBase64(state.rollout.obsHistory) };
  }
  if (state.klScale !== undefined && state.klScale !== 1) encoded.kl_scale = state.klScale;
  if (state.rewardScale) {
    encoded.reward_scale = { returns: float64ToBase64(state.rewardScale.returns), stats: state.rewardScale.stats as unknown as JsonObject };
  }
  return encoded;
}

export function decodeResumeState(value: JsonObject): RunResumeState {
  if (value.format_version !== RESUME_FORMAT_VERSION) {
    fail('format_version', `is ${JSON.stringify(value.format_version)}, but this build reads ${RESUME_FORMAT_VERSION}`);
  }
  const lines = list(value.history, 'history');
  if (!lines.every((line) => typeof line === 'string')) fail('history', 'must be a list of JSON lines');
  const state: RunResumeState = {
    elapsedSeconds: finite(value.elapsed_s, 'elapsed_s'),
    skipStreak: count(value.skip_streak, 'skip_streak'),
    history: lines.length === 0 ? [] : [...parseMetricsJsonl((lines as string[]).join('\n'), 'checkpoint resume history', { tornLastLine: 'refuse' }).records],
  };
  const lastEval = decodeEval(value.last_eval);
  if (lastEval) state.lastEval = lastEval;
  if (value.rollout !== undefined) {
    const rollout = object(value.rollout, 'rollout');
    if (typeof rollout.env_key !== 'string') fail('rollout.env_key', 'must be a string');
    state.rollout = { envKey: rollout.env_key, env: decodeBatch(rollout.env, 'rollout.env'), obsHistory: base64ToFloat32(rollout.obs_history, 'rollout.obs_history') };
  }
  if (value.kl_scale !== undefined) {
    const scale = finite(value.kl_scale, 'kl_scale');
    if (!(scale > 0)) fail('kl_scale', `must be positive, got ${scale}`);
    state.klScale = scale;
  }
  if (value.reward_scale !== undefined) {
    const scale = object(value.reward_scale, 'reward_scale');
    const stats = RunningMeanStd.fromJSON(scale.stats, 1, 'reward_scale.stats').toJSON();
    state.rewardScale = { returns: base64ToFloat64(scale.returns, 'reward_scale.returns'), stats };
  }
  return state;
}
