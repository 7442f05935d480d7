/**
 * A Gaussian policy's .flowtune file (DESIGN.md §6 with `architecture.kind = 'gaussian'`): the
 * actor and critic weights, the running observation stats as its normalizer, the run config and,
 * during a run, both optimizers' moments and the resume state.
 */
import type { JsonObject, OptimizerState, RunProgress, TensorData } from '../checkpoint/checkpoint-types';
import { adamFromTensors } from '../checkpoint/checkpoint-open';
import type { CheckpointFile } from '../checkpoint/checkpoint-file';
import { readChecked } from '../checkpoint/checkpoint-reader';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { adamToTensors } from '../checkpoint/policy-checkpoint';
import { FLOWTUNE_FORMAT_VERSION, type CheckpointStage, type FlowtuneMetadata } from '../checkpoint/metadata';
import type { RunConfig } from '../config/run-config';
import { getTask, hasTask } from '../envs/task-registry';
import { CheckpointError } from '../errors';
import { gaussianParameterShapes, type GaussianPolicyOptions } from './gaussian-options';
import type { GaussianBundle } from './gaussian-bundle';
import { RunningMeanStd } from './running-mean-std';

export interface GaussianSnapshot {
  bundle: GaussianBundle;
  config: RunConfig;
  stage: CheckpointStage;
  progress?: RunProgress;
  evalSummary?: Record<string, number>;
  resume?: JsonObject;
  /** The observation statistics to store, when they are not the scaler's now (a save made mid-iteration). */
  obsStats?: RunningMeanStd;
}

export async function gaussianContents(snapshot: GaussianSnapshot): Promise<FlowtuneContents> {
  const { policy, obsScaler } = snapshot.bundle;
  const { options } = policy;
  const progress = snapshot.progress;
  let optimizer: OptimizerState | undefined;
  if (progress) {
    const tensors = new Map<string, TensorData>();
    adamToTensors('actor', progress.actor, policy.shapes, tensors);
    adamToTensors('critic', progress.critic, policy.shapes, tensors);
    optimizer = { state: { actor: { kind: 'adam', step: progress.actor.step }, critic: { kind: 'adam', step: progress.critic.step } }, tensors };
  }
  const task = snapshot.config.task;
  const metadata: FlowtuneMetadata = {
    format_version: FLOWTUNE_FORMAT_VERSION,
    task,
    ...(hasTask(task) ? { task_hash: getTask(task).hash } : {}),
    shape_meta: { obs: { state: { shape: [1, options.obsDim] } }, action: { shape: [options.actionDim] } },
    architecture: { kind: 'gaussian', obs_dim: options.obsDim, action_dim: options.actionDim, hidden: [...options.hidden] },
    normalizer: { obs: { ...(snapshot.obsStats ?? obsScaler.stats).toJSON(), clip: obsScaler.clip, enabled: obsScaler.enabled } as unknown as JsonObject },
    noise: {},
    stage: snapshot.stage,
    training: { step: progress?.actor.step ?? 0, iteration: progress?.iteration ?? 0, env_steps: progress?.envSteps ?? 0 },
    eval: snapshot.evalSummary ?? {},
    config: snapshot.config as unknown as JsonObject,
  };
  if (snapshot.resume) metadata.resume = snapshot.resume;
  return { tensors: await policy.getWeights(), metadata, optimizer };
}

export interface GaussianCheckpoint {
  kind: 'gaussian';
  metadata: FlowtuneMetadata;
  options: GaussianPolicyOptions;
  tensors: Map<string, TensorData>;
  obsStats: RunningMeanStd;
  obsClip: number;
  obsNormEnabled: boolean;
  progress?: RunProgress;
}

/** Decodes and checks a Gaussian policy's checkpoint file for a run whose env gives `obsDim` and takes `actionDim`. */
export function decodeGaussianCheckpoint(file: CheckpointFile, expected: { obsDim?: number; actionDim?: number } = {}): GaussianCheckpoint {
  if (file.kind !== 'gaussian') throw new CheckpointError(`${file.name} holds a ${file.kind} policy, not a Gaussian policy`);
  const { metadata, architecture: options } = file;
  if (expected.obsDim !== undefined && options.obsDim !== expected.obsDim) throw new CheckpointError(`checkpoint expects observations of ${options.obsDim} values, but the run's env gives ${expected.obsDim}`);
  if (expected.actionDim !== undefined && options.actionDim !== expected.actionDim) throw new CheckpointError(`checkpoint has actionDim ${options.actionDim}, but the run's env needs ${expected.actionDim}`);
  const shapes = gaussianParameterShapes(options);
  const decoded = readChecked(file.checked, file.data, { expectedShapes: shapes });
  const obs = (metadata.normalizer as Record<string, unknown>).obs as Record<string, unknown> | undefined;
  const obsStats = RunningMeanStd.fromJSON(obs, options.obsDim, 'normalizer.obs');
  const obsClip = obs?.clip;
  if (typeof obsClip !== 'number' || !(obsClip > 0)) throw new CheckpointError('checkpoint normalizer \'obs\' must hold a positive clip');
  if (typeof obs?.enabled !== 'boolean') throw new CheckpointError('checkpoint normalizer \'obs\' must say whether it is enabled (true or false)');
  const progress: RunProgress | undefined = decoded.optimizer !== undefined
    ? { iteration: metadata.training.iteration, envSteps: metadata.training.env_steps, actor: adamFromTensors('actor', decoded, shapes), critic: adamFromTensors('critic', decoded, shapes) }
    : undefined;
  return { kind: 'gaussian', metadata, options, tensors: decoded.tensors, obsStats, obsClip, obsNormEnabled: obs.enabled, progress };
}
