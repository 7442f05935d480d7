/**
 * Checkpoints as the trainer worker sees them: decoded and validated once when chosen
 * (the live run is never touched); runs and idle views build live policies from that.
 */
import type { RunConfig, TaskName } from '../../src/core/config/run-config';
import { actionDim as actionDimOf } from '../../src/core/envs/controller';
import { observationSpec } from '../../src/core/envs/observation';
import { getTask } from '../../src/core/envs/registry';
import type { FlowtuneMetadata } from '../../src/core/checkpoint/metadata';
import { inspectFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { decodePolicyCheckpoint, decodeTfjsPolicyCheckpoint, type ExpectedEnvShapes, type PolicyCheckpoint } from '../../src/core/checkpoint/policy-checkpoint';
import { CheckpointError } from '../../src/core/errors';
import type { CheckpointFiles, CheckpointInfo, ObsType } from '../../src/protocol/trainer-api';

/** The observation kind of a task's env, with its point count for point clouds. */
export type EnvObservation = { obsType: 'state' } | { obsType: 'pointcloud'; numPoints: number };

/** Observation kind, per-frame obs size and action size of a task's env under this config. */
export function envDims(config: RunConfig): ExpectedEnvShapes & { obsFrameSize: number; actionDim: number } {
  return {
    obsEncoder: config.env.obs_type,
    obsFrameSize: observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points).dim,
    actionDim: actionDimOf(config.env.control_mode),
  };
}

/**
 * The observation a checkpoint was trained on, read from its declared architecture without
 * decoding it; undefined when the file cannot say (the full decode then names the problem).
 */
export function declaredObservation(files: CheckpointFiles): EnvObservation | undefined {
  let architecture: unknown;
  try {
    const metadata = files.kind === 'flowtune'
      ? inspectFlowtune(files.bytes).metadata
      : (JSON.parse(files.modelJson) as { userDefinedMetadata?: { flowtune?: FlowtuneMetadata } }).userDefinedMetadata?.flowtune;
    architecture = metadata?.architecture;
  } catch {
    return undefined;
  }
  const { obsEncoder, numPoints } = (architecture ?? {}) as { obsEncoder?: unknown; numPoints?: unknown };
  // Checkpoints written before point clouds existed name no encoder: they are state policies.
  if (obsEncoder === undefined || obsEncoder === 'state') return { obsType: 'state' };
  if (obsEncoder === 'pointcloud' && typeof numPoints === 'number' && Number.isInteger(numPoints) && numPoints > 0) return { obsType: 'pointcloud', numPoints };
  return undefined;
}

/**
 * Decodes and validates `files` for `task` whose env gives the observation `observation`
 * (the config's by default), so a file for another observation or action space is refused.
 */
export function decodeFiles(files: CheckpointFiles, task: TaskName, config: RunConfig, observation?: EnvObservation): PolicyCheckpoint {
  const env = observation?.obsType === 'pointcloud'
    ? { ...config.env, obs_type: observation.obsType, num_points: observation.numPoints }
    : { ...config.env, obs_type: observation?.obsType ?? config.env.obs_type };
  const options = { expectedTask: task, expected: envDims({ ...config, task, env }) };
  return files.kind === 'flowtune' ? decodePolicyCheckpoint(files.bytes, options) : decodeTfjsPolicyCheckpoint(files.modelJson, files.weights, options);
}

/**
 * One line for the model panel, e.g. "point cloud 128 pts · DiT-X 64×2, 4 heads · H 8 · K 4 · act 4"
 * or "state · MLP [128, 128, 128] · H 8 · K 4 · obs 39 · act 4".
 */
export function describeArchitecture(checkpoint: Pick<PolicyCheckpoint, 'architecture' | 'metadata'>): string {
  const arch = checkpoint.architecture;
  const steps = (checkpoint.metadata.architecture as Record<string, unknown>).denoise_steps ?? '?';
  const observation = arch.obsEncoder === 'pointcloud' ? `point cloud ${arch.numPoints} pts` : 'state';
  const net = arch.velocityNet === 'ditx' ? `DiT-X ${arch.ditxDim}×${arch.ditxDepth}, ${arch.ditxHeads} heads` : `MLP [${arch.velocityHidden.join(', ')}]`;
  // A point-cloud frame is mostly points: its proprioception size would read as the obs size.
  const obs = arch.obsEncoder === 'pointcloud' ? [] : [`obs ${arch.obsDim}`];
  return [observation, net, `H ${arch.horizon}`, `K ${steps}`, ...obs, `act ${arch.actionDim}`].join(' · ');
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
    architecture: describeArchitecture(checkpoint),
    eval: { ...metadata.eval },
    hasOptimizerState: checkpoint.progress !== undefined,
    format: files.kind,
  };
}

/** Where a task's shipped BC checkpoint for an observation kind lives, relative to the site root. */
export function shippedCheckpointPath(task: TaskName, obsType: ObsType): string {
  return obsType === 'pointcloud' ? `checkpoints/${task}-pointcloud-bc.flowtune` : `checkpoints/${task}-bc.flowtune`;
}

/** Fetches a shipped checkpoint; undefined when the server has none (a 404 or the HTML fallback page). */
export async function fetchShipped(task: TaskName, obsType: ObsType): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  const path = shippedCheckpointPath(task, obsType);
  const url = new URL(`/${path}`, self.location.origin);
  const response = await fetch(url);
  if (!response.ok || (response.headers.get('content-type') ?? '').includes('text/html')) return undefined;
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length === 0) throw new CheckpointError(`shipped checkpoint ${path} is empty`);
  return { name: path, bytes };
}
