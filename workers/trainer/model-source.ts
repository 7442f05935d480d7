/**
 * Checkpoints as the trainer worker shows and fetches them: the Model panel's description and the
 * shipped files. Opening one is core/run's openCheckpoint, the same as every host's.
 */
import type { TaskName } from '../../src/core/config/run-config';
import type { PolicyCheckpoint } from '../../src/core/checkpoint/checkpoint-open';
import { CheckpointError } from '../../src/core/errors';
import type { CheckpointFiles, CheckpointInfo, ObsType } from '../../src/protocol/trainer-api';

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

/** Whether the server ships a checkpoint for the task and observation kind (a HEAD request; nothing downloads). */
export async function shippedExists(task: TaskName, obsType: ObsType): Promise<boolean> {
  const response = await fetch(new URL(`/${shippedCheckpointPath(task, obsType)}`, self.location.origin), { method: 'HEAD' }).catch(() => undefined);
  return response !== undefined && response.ok && !(response.headers.get('content-type') ?? '').includes('text/html');
}
