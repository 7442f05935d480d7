/**
 * Node-side pieces shared by the train, eval and pretrain commands: MuJoCo, tfjs and
 * checkpoint files, each decoded once.
 */
import { readFileSync } from 'node:fs';
import { validateConfig, type RunConfig, type RunOverrides } from '../core/config';
import { bundleFromCheckpoint, type LoadedBundle } from '../core/checkpoint/policy-checkpoint';
import { InThreadBatchEnv } from '../core/envs/in-thread-batch-env';
import type { BatchEnv } from '../core/envs/batch-env';
import { CheckpointError } from '../core/errors';
import { envShapes, openCheckpoint, type OpenedCheckpoint } from '../core/run/open-checkpoint';
import { decodeGaussianCheckpoint, isGaussianMetadata, peekFlowtuneMetadata, type GaussianCheckpoint } from '../core/gaussian/gaussian-checkpoint';
import { runEnvConfig } from '../core/run/run-env-config';
import { loadMujocoNode } from './mujoco-node';
import { registerBuiltInTasks } from '../tasks';
import { useNodeBackend } from './node-backend';

export async function prepareRuntime(): Promise<void> {
  registerBuiltInTasks();
  await useNodeBackend('wasm');
  await loadMujocoNode();
}

/** `episodes` envs in this thread for deterministic evaluation, recording qpos like the run's eval envs. */
export async function openEvalEnv(config: RunConfig, episodes: number): Promise<BatchEnv> {
  return new InThreadBatchEnv(await loadMujocoNode(), { ...runEnvConfig(config, 'eval', true), numEnvs: episodes });
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
 * A checkpoint file for a run (core/run openCheckpoint): the config in force (the checkpoint's
 * fixed fields, then every override, a preset's first; a contradicting override is a ConfigError
 * naming both values) and the file decoded and validated once against that config's env. Nothing
 * is written before this.
 */
export function openCheckpointFile(path: string, base: RunConfig, overrides: readonly string[] | RunOverrides): OpenedCheckpoint {
  return openCheckpoint({ kind: 'flowtune', name: path, bytes: readCheckpointFile(path) }, base, overrides);
}

/** openCheckpointFile with a live policy built from it. */
export function loadRunCheckpoint(path: string, base: RunConfig, overrides: readonly string[] | RunOverrides): { loaded: LoadedBundle; config: RunConfig } {
  const { checkpoint, config } = openCheckpointFile(path, base, overrides);
  return { loaded: bundleFromCheckpoint(checkpoint, config.policy.detach_critic_input), config };
}

/** Whether the checkpoint file at `path` holds a Gaussian policy (policy.kind=gaussian). */
export function isGaussianCheckpointFile(path: string): boolean {
  return isGaussianMetadata(peekFlowtuneMetadata({ kind: 'flowtune', name: path, bytes: readCheckpointFile(path) }));
}

/**
 * A Gaussian policy's checkpoint for a run: the config in force (`base` with the fields the file
 * decides: policy.kind=gaussian, one action per decision on the current state observation, its
 * hidden widths) and the file decoded for that config's env.
 */
export function openGaussianCheckpointFile(path: string, base: RunConfig): { checkpoint: GaussianCheckpoint; config: RunConfig } {
  const bytes = readCheckpointFile(path);
  const hidden = (peekFlowtuneMetadata({ kind: 'flowtune', name: path, bytes }).architecture as { hidden?: unknown }).hidden;
  const config = validateConfig({
    ...base,
    policy: { ...base.policy, kind: 'gaussian', horizon: 1, n_action_steps: 1, n_obs_steps: 1, ...(Array.isArray(hidden) ? { gaussian_hidden: hidden as number[] } : {}) },
    env: { ...base.env, obs_type: 'state' },
  });
  const shapes = envShapes(config);
  return { checkpoint: decodeGaussianCheckpoint(bytes, { task: config.task, obsDim: shapes.obsFrameSize, actionDim: shapes.actionDim }), config };
}
