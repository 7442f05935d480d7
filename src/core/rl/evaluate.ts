import type { RunConfig } from '../config/run-config';
import type { EpisodeRecord } from '../envs/task-env';
import { getTask, hasTask } from '../envs/task-registry';
import type { Rng } from '../random';
import type { BatchEnv } from '../envs/batch-env';
import { historyFor } from './obs-history';
import { executedActions, normalizeStacked, sampleForObs } from './policy-bundle';
import type { PolicyBundle } from '../policy/policy-bundle';
import { samplerOptionsAt } from './policy-setup';

export interface EvalSummary {
  episodes: number;
  /** Absent for a task without a success rule (DESIGN.md §13): it is measured by return. */
  successRate?: number;
  meanReturn: number;
  meanLength: number;
  /** The first episode of each env, in env order. */
  records: EpisodeRecord[];
}

/**
 * A checkpoint's stored evaluation (`npm run eval`'s defaults): seeds far from the training seeds (0 on)
 * and from the in-run evaluation's; batch b of envs draws x_0 from the stream seeded seed + its first episode.
 */
export const EVAL_DEFAULTS = { episodes: 100, seed: 1_000_000, batch: 100 } as const;

/**
 * Whether a task reports success (DESIGN.md §13); without it runs are measured by return. A name
 * this process has not registered keeps the success measure rather than failing mid-run.
 */
export function taskHasSuccess(task: string): boolean {
  return !hasTask(task) || getTask(task).hasSuccess;
}

/** Fixed evaluation seeds, kept apart from training seeds by `eval.seed`. */
export function evalSeeds(config: RunConfig, count: number): number[] {
  return Array.from({ length: count }, (_, episodeIndex) => config.eval.seed + episodeIndex);
}

/**
 * The deterministic policy as evaluation drives it: raw stacked observations [B, nObs·frame] in
 * env units (and, for image observations, their uint8 camera images [B × imageBytes]) → the executed
 * env actions [B, n_action_steps, A]. x_0 comes from `rng`: B·H·A normals, drawn as `sampleActions`
 * draws them, so every implementation sees the same noise.
 */
export interface EvalActor {
  act(stackedObs: Float32Array, batch: number, rng: Rng, images?: Uint8Array): Promise<Float32Array>;
}

/** The tfjs policy of a bundle as an EvalActor: all-ODE chains with the current weights. */
export function bundleActor(bundle: PolicyBundle, config: RunConfig): EvalActor {
  const sampler = samplerOptionsAt(config, 0, 'eval');
  return {
    act: async (stackedObs, _batch, rng, images) => {
      const sample = await sampleForObs(bundle, normalizeStacked(bundle, stackedObs), sampler, rng, images);
      return executedActions(bundle, sample, config.policy.n_action_steps);
    },
  };
}

/**
 * Deterministic evaluation (DESIGN.md §4): all-ODE chains with the current weights, one
 * episode per seed. `env` must have exactly one env per seed; each env's first episode counts.
 */
export async function evaluatePolicy(bundle: PolicyBundle, env: BatchEnv, config: RunConfig, seeds: readonly number[], rng: Rng): Promise<EvalSummary> {
  return evaluateActor(bundleActor(bundle, config), env, config, seeds, rng);
}

/** evaluatePolicy for any implementation of the deterministic policy (tfjs, or an exported ONNX graph). */
export async function evaluateActor(actor: EvalActor, env: BatchEnv, config: RunConfig, seeds: readonly number[], rng: Rng): Promise<EvalSummary> {
  const numEnvs = env.numEnvs;
  if (seeds.length !== numEnvs) throw new RangeError(`evaluation needs one env per seed: ${seeds.length} seeds for ${numEnvs} envs`);
  const nActionSteps = config.policy.n_action_steps;
  const history = historyFor(env, config.policy.n_obs_steps);
  history.reset(await env.reset(seeds), env.images?.());
  await env.drainEpisodes();
  const firstEpisodes: (EpisodeRecord | undefined)[] = new Array(numEnvs).fill(undefined);
  let remaining = numEnvs;
  while (remaining > 0) {
    const actions = await actor.act(history.stacked(), numEnvs, rng, history.images());
    const result = await env.stepChunk(actions, nActionSteps, config.advantages.gamma);
    history.advance(result, nActionSteps, config.policy.history_spacing);
    for (const episode of await env.drainEpisodes()) {
      if (firstEpisodes[episode.envIndex] === undefined) {
        firstEpisodes[episode.envIndex] = episode;
        remaining--;
      }
    }
  }
  const records = firstEpisodes as EpisodeRecord[];
  const mean = (pick: (episode: EpisodeRecord) => number) => records.reduce((sum, episode) => sum + pick(episode), 0) / numEnvs;
  return {
    episodes: numEnvs,
    ...(taskHasSuccess(config.task) ? { successRate: mean((episode) => (episode.success ? 1 : 0)) } : {}),
    meanReturn: mean((episode) => episode.episodeReturn),
    meanLength: mean((episode) => episode.length),
    records,
  };
}

/** The eval summary a run keeps and a checkpoint stores (DESIGN.md §6 "a summary of eval metrics"). */
export interface EvalSummaryNumbers {
  episodes: number;
  /** Absent for a task without a success rule. */
  success_rate?: number;
  mean_return: number;
  mean_length: number;
}

/** The figure an evaluation is read by: "success 0.800", or "return -123.45" for a task without a success rule. */
export function evalMeasureText(summary: { success_rate?: number; mean_return: number }): string {
  return summary.success_rate !== undefined ? `success ${summary.success_rate.toFixed(3)}` : `return ${summary.mean_return.toFixed(2)}`;
}

/**
 * The final evaluation as a run's closing report gives it: the success rate, or the mean return for
 * a task without a success rule (no success key at all then); null when no evaluation ran.
 */
export function finalEvalFields(task: string, summary: EvalSummaryNumbers | undefined): { eval_success_rate: number | null } | { eval_mean_return: number | null } {
  return taskHasSuccess(task) ? { eval_success_rate: summary?.success_rate ?? null } : { eval_mean_return: summary?.mean_return ?? null };
}

export function evalSummaryNumbers(summary: EvalSummary): EvalSummaryNumbers {
  return {
    episodes: summary.episodes,
    ...(summary.successRate !== undefined ? { success_rate: summary.successRate } : {}),
    mean_return: summary.meanReturn,
    mean_length: summary.meanLength,
  };
}
