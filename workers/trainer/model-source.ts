/**
 * Checkpoints as the trainer worker shows and fetches them: the Model panel's description and the
 * shipped files. Opening one is core/run's openCheckpoint, the same as every host's.
 */
import type { TaskName } from '../../src/core/config/run-config';
import { describeCheckpointPolicy } from '../../src/core/run/describe-checkpoint';
import type { FamilyCheckpoint } from '../../src/core/run/family-checkpoint';
import { CheckpointError } from '../../src/core/errors';
import type { CheckpointFiles, CheckpointInfo, ObsType } from '../../src/protocol/trainer-api';

export function checkpointInfo(files: CheckpointFiles, checkpoint: FamilyCheckpoint): CheckpointInfo {
  const { metadata } = checkpoint;
  return {
    source: files.name,
    task: metadata.task,
    stage: metadata.stage,
    step: metadata.training.step,
    iteration: metadata.training.iteration,
    envSteps: metadata.training.env_steps,
    architecture: describeCheckpointPolicy(checkpoint),
    eval: { ...metadata.eval },
    hasOptimizerState: checkpoint.progress !== undefined,
    format: files.kind,
    peerLayout: checkpoint.kind === 'gaussian' || checkpoint.architecture.velocityNet !== 'reflow_mlp' ? null : checkpoint.kind === 'diffusion' ? 'dppo' : 'reinflow',
  };
}

/** Where a task's shipped BC checkpoint for an observation kind lives, relative to the site root: `<task>-bc`, `<task>-rgb-bc`, `<task>-depth-pointcloud-bc`. */
export function shippedCheckpointPath(task: TaskName, obsType: ObsType): string {
  return obsType === 'state' ? `checkpoints/${task}-bc.flowtune` : `checkpoints/${task}-${obsType.replaceAll('_', '-')}-bc.flowtune`;
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
