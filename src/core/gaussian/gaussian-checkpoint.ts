/**
 * A Gaussian policy's .flowtune file (DESIGN.md §6 with `architecture.kind = 'gaussian'`): the
 * actor and critic weights, the running observation stats as its normalizer, the run config and,
 * during a run, both optimizers' moments and the resume state.
 */
import type { JsonObject, OptimizerState, RunProgress, TensorData } from '../checkpoint/checkpoint-types';
import { adamFromTensors, type CheckpointFiles } from '../checkpoint/checkpoint-open';
import { checkSource, readChecked } from '../checkpoint/checkpoint-reader';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { adamToTensors } from '../checkpoint/policy-checkpoint';
import { parseFlowtuneFile } from '../checkpoint/flowtune-file';
import { FLOWTUNE_FORMAT_VERSION, type CheckpointStage, type FlowtuneMetadata } from '../checkpoint/metadata';
import type { RunConfig } from '../config/run-config';
import { getTask, hasTask } from '../envs/task-registry';
import { CheckpointError, isFlowtuneError } from '../errors';
import { gaussianParameterShapes, resolveGaussianOptions, type GaussianPolicyOptions } from './gaussian-options';
import type { GaussianBundle } from './gaussian-bundle';
import { RunningMeanStd } from './running-mean-std';

export interface GaussianSnapshot {
  bundle: GaussianBundle;
  config: RunConfig;
  stage: CheckpointStage;
  progress?: RunProgress;
  evalSummary?: Record<string, number>;
  resume?: JsonObject;
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
    normalizer: { obs: { ...obsScaler.stats.toJSON(), clip: obsScaler.clip, enabled: obsScaler.enabled } as unknown as JsonObject },
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
  metadata: FlowtuneMetadata;
  options: GaussianPolicyOptions;
  tensors: Map<string, TensorData>;
  obsStats: RunningMeanStd;
  obsClip: number;
  obsNormEnabled: boolean;
  progress?: RunProgress;
}

/** Whether a checkpoint's metadata declares a Gaussian policy. */
export function isGaussianMetadata(metadata: FlowtuneMetadata): boolean {
  return (metadata.architecture as { kind?: unknown }).kind === 'gaussian';
}

/** Reads a .flowtune file's metadata without decoding tensors (which policy family it holds, its task). */
export function peekFlowtuneMetadata(files: CheckpointFiles): FlowtuneMetadata {
  const source = files.kind === 'flowtune' ? parseFlowtuneFile(files.bytes) : undefined;
  if (!source) throw new CheckpointError('a Gaussian policy is stored as a .flowtune file only');
  return checkSource(source, undefined).metadata;
}

/** Decodes and checks a Gaussian policy's file for a run on `task` whose env gives `obsDim` and takes `actionDim`. */
export function decodeGaussianCheckpoint(bytes: Uint8Array, expected: { task: string; obsDim?: number; actionDim?: number }): GaussianCheckpoint {
  const source = parseFlowtuneFile(bytes);
  const checked = checkSource(source, expected.task);
  const { metadata } = checked;
  const architecture = metadata.architecture as Record<string, unknown>;
  let options: GaussianPolicyOptions;
  try {
    options = resolveGaussianOptions({ kind: architecture.kind as 'gaussian', obsDim: architecture.obs_dim as number, actionDim: architecture.action_dim as number, hidden: architecture.hidden as number[] });
  } catch (error) {
    throw new CheckpointError(`checkpoint architecture is invalid: ${isFlowtuneError(error) ? error.message : String(error)}`);
  }
  if (expected.obsDim !== undefined && options.obsDim !== expected.obsDim) throw new CheckpointError(`checkpoint expects observations of ${options.obsDim} values, but the run's env gives ${expected.obsDim}`);
  if (expected.actionDim !== undefined && options.actionDim !== expected.actionDim) throw new CheckpointError(`checkpoint has actionDim ${options.actionDim}, but the run's env needs ${expected.actionDim}`);
  const shapes = gaussianParameterShapes(options);
  const decoded = readChecked(checked, source.data, { expectedShapes: shapes });
  const obs = (metadata.normalizer as Record<string, unknown>).obs as Record<string, unknown> | undefined;
  const obsStats = RunningMeanStd.fromJSON(obs, options.obsDim, 'normalizer.obs');
  const obsClip = obs?.clip;
  if (typeof obsClip !== 'number' || !(obsClip > 0)) throw new CheckpointError('checkpoint normalizer \'obs\' must hold a positive clip');
  if (typeof obs?.enabled !== 'boolean') throw new CheckpointError('checkpoint normalizer \'obs\' must say whether it is enabled (true or false)');
  const progress: RunProgress | undefined = decoded.optimizer !== undefined
    ? { iteration: metadata.training.iteration, envSteps: metadata.training.env_steps, actor: adamFromTensors('actor', decoded, shapes), critic: adamFromTensors('critic', decoded, shapes) }
    : undefined;
  return { metadata, options, tensors: decoded.tensors, obsStats, obsClip, obsNormEnabled: obs.enabled, progress };
}
