/**
 * Node-side pieces shared by the train, eval and pretrain commands: MuJoCo, tfjs and
 * checkpoint files, each decoded once.
 */
import { readFileSync } from 'node:fs';
import type { RunConfig, RunOverrides } from '../core/config';
import { parseCheckpointFile, type CheckpointFile } from '../core/checkpoint/checkpoint-file';
import { InThreadBatchEnv } from '../core/envs/in-thread-batch-env';
import type { BatchEnv } from '../core/envs/batch-env';
import { CheckpointError } from '../core/errors';
import { openCheckpoint, type OpenedCheckpoint } from '../core/run/open-checkpoint';
import { loadPolicy } from '../core/run/families';
import type { LoadedPolicy } from '../core/run/policy-family';
import { runEnvConfig } from '../core/run/run-env-config';
import { loadMujocoNode } from './mujoco-node';
import { registerBuiltInTasks } from '../tasks';
import { useNodeBackend } from './node-backend';
import { isPeerCheckpointName } from '../core/checkpoint/peers/peer-file-names';
import { openPeerCheckpointFile, type PeerFileArgs } from './peer-files';

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
 * A checkpoint file on disk as core's CheckpointFile: read once, its header parsed once. A ReinFlow or DPPO `.pt` comes
 * with its normalization and config (`peer`) and is matched to `expectedTask`, or to the one task its sizes fit.
 */
export function loadCheckpointFile(path: string, options: { expectedTask?: string; peer?: PeerFileArgs } = {}): CheckpointFile {
  if (isPeerCheckpointName(path)) return openPeerCheckpointFile(path, options.peer ?? { normalization: '', peer_config: '' }, options.expectedTask);
  return parseCheckpointFile({ kind: 'flowtune', name: path, bytes: readCheckpointFile(path) }, options);
}

/**
 * A checkpoint file for a run (core/run openCheckpoint), whatever its policy family: the config in
 * force (the checkpoint's fixed fields, then every override, a preset's first; a contradicting
 * override is a ConfigError naming both values) and the file decoded and validated once against
 * that config's env. Nothing is written before this.
 */
export function openCheckpointFile(path: string | CheckpointFile, base: RunConfig, overrides: readonly string[] | RunOverrides, peer?: PeerFileArgs): OpenedCheckpoint {
  return openCheckpoint(typeof path === 'string' ? loadCheckpointFile(path, { expectedTask: base.task, peer }) : path, base, overrides);
}

/** openCheckpointFile with the checkpoint's live policy (evaluation, export, demos); the caller disposes it. */
export function loadRunCheckpoint(path: string | CheckpointFile, base: RunConfig, overrides: readonly string[] | RunOverrides, peer?: PeerFileArgs): { policy: LoadedPolicy; config: RunConfig } {
  const { checkpoint, config } = openCheckpointFile(path, base, overrides, peer);
  return { policy: loadPolicy(checkpoint, config), config };
}
