/**
 * Checkpoints as the trainer worker sees them: decoded and validated once when chosen
 * (the live run is never touched); runs and idle views build live policies from that.
 */
import type { RunConfig, TaskName } from '../../src/core/config/run-config';
import { actionDim as actionDimOf } from '../../src/core/envs/controller';
import { observationSpec } from '../../src/core/envs/observation';
import { getTask } from '../../src/core/envs/registry';
import type { FlowtuneMetadata } from '../../src/core/checkpoint/metadata';
import { decodePolicyCheckpoint, decodeTfjsPolicyCheckpoint, type ExpectedEnvShapes, type PolicyCheckpoint } from '../../src/core/checkpoint/policy-checkpoint';
import { CheckpointError } from '../../src/core/errors';
import type { CheckpointFiles, CheckpointInfo } from '../../src/protocol/trainer-api';

/** Observation kind, per-frame obs size and action size of a task's env under this config. */
export function envDims(config: RunConfig): ExpectedEnvShapes & { obsFrameSize: number; actionDim: number } {
  return {
    obsEncoder: config.env.obs_type,
    obsFrameSize: observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points).dim,
    actionDim: actionDimOf(config.env.control_mode),
  };
}

export function decodeFiles(files: CheckpointFiles, task: TaskName, config: RunConfig): PolicyCheckpoint {
  const options = { expectedTask: task, expected: envDims({ ...config, task }) };
  return files.kind === 'flowtune' ? decodePolicyCheckpoint(files.bytes, options) : decodeTfjsPolicyCheckpoint(files.modelJson, files.weights, options);
}

function describeArchitecture(metadata: FlowtuneMetadata): string {
  const arch = metadata.architecture as Record<string, unknown>;
  const hidden = Array.isArray(arch.velocityHidden) ? `[${(arch.velocityHidden as number[]).join(', ')}]` : '?';
  return `${arch.obsEncoder ?? 'state'} · mlp ${hidden} · H ${arch.horizon} · K ${arch.denoise_steps ?? '?'} · obs ${arch.obsDim} · act ${arch.actionDim}`;
}

export function checkpointInfo(files: CheckpointFiles, checkpoint: PolicyCheckpoint): CheckpointInfo {
  const { metadata } = checkpoint;
  return {
    source: files.name,
    task: metadata.task,
    stage: metadata.stage,
    step: metadata.training.step,
    iteration: metadata.training.iteration,
    envSteps: metadata.training.env_steps,
    architecture: describeArchitecture(metadata),
    eval: { ...metadata.eval },
    hasOptimizerState: checkpoint.progress !== undefined,
    format: files.kind,
  };
}

/** Fetches a shipped checkpoint; undefined when the server has none (a 404 or the HTML fallback page). */
export async function fetchShipped(task: TaskName): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  const path = `checkpoints/${task}-bc.flowtune`;
  const url = new URL(`/${path}`, self.location.origin);
  const response = await fetch(url);
  if (!response.ok || (response.headers.get('content-type') ?? '').includes('text/html')) return undefined;
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length === 0) throw new CheckpointError(`shipped checkpoint ${path} is empty`);
  return { name: path, bytes };
}
