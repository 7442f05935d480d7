/**
 * Node-side pieces shared by the train, eval and pretrain commands: MuJoCo, tfjs,
 * env batches and checkpoint files.
 */
import { readFileSync } from 'node:fs';
import { applyOverrides, validateConfig, type RunConfig } from '../core/config';
import { configFromCheckpoint, loadBundle, type LoadedBundle } from '../core/checkpoint/policy-checkpoint';
import { CheckpointError } from '../core/errors';
import { inspectFlowtune } from '../core/checkpoint/flowtune-file';
import { VectorEnv, type VectorEnvConfig } from '../core/envs/vector-env';
import { chunkEnvFromVectorEnv, type ChunkEnv } from '../core/rl/chunk-env';
import { createNodeShardedEnv, loadMujocoNode } from './mujoco-node';
import { useNodeBackend } from './node-backend';

export async function prepareRuntime(): Promise<void> {
  await useNodeBackend('wasm');
  await loadMujocoNode();
}

export function vectorEnvConfig(config: RunConfig, numEnvs: number, recordEpisodes: boolean): VectorEnvConfig {
  return {
    task: config.task,
    numEnvs,
    obsMode: config.env.obs_type,
    controlMode: config.env.control_mode,
    rewardMode: config.env.reward,
    numPoints: config.env.num_points,
    recordEpisodes,
    maxEpisodeSteps: config.env.max_episode_steps,
  };
}

/** The training batch: sharded over worker_threads when env.workers asks for more than one, else in this thread. */
export async function openTrainingEnv(config: RunConfig): Promise<ChunkEnv> {
  const envConfig = vectorEnvConfig(config, config.num_envs, false);
  if (config.env.workers > 1) return createNodeShardedEnv(envConfig, { numWorkers: config.env.workers });
  return chunkEnvFromVectorEnv(new VectorEnv(await loadMujocoNode(), envConfig));
}

/** One env per evaluation episode, in this thread. */
export async function openEvalEnv(config: RunConfig, episodes: number): Promise<ChunkEnv> {
  return chunkEnvFromVectorEnv(new VectorEnv(await loadMujocoNode(), vectorEnvConfig(config, episodes, true)));
}

export function readCheckpointFile(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CheckpointError(code === 'ENOENT' ? `checkpoint file '${path}' does not exist` : `checkpoint file '${path}' cannot be read (${code ?? 'unknown error'})`);
  }
}

/**
 * Loads a checkpoint for a run: the checkpoint decides the architecture, K and executed steps;
 * the command line's overrides then apply on top (and are validated again).
 */
export async function loadRunCheckpoint(path: string, config: RunConfig, overrides: readonly string[]): Promise<{ loaded: LoadedBundle; config: RunConfig }> {
  const bytes = readCheckpointFile(path);
  const probe = new VectorEnv(await loadMujocoNode(), vectorEnvConfig(config, 1, false));
  const expected = { obsDim: probe.obsDim, actionDim: probe.config.actionDim };
  probe.dispose();
  const { metadata } = inspectFlowtune(bytes, { expectedTask: config.task });
  const runConfig = validateConfig(applyOverrides(configFromCheckpoint(config, metadata), overrides));
  const loaded = loadBundle(bytes, { expectedTask: config.task, expected, detachCriticInput: runConfig.policy.detach_critic_input });
  return { loaded, config: runConfig };
}
