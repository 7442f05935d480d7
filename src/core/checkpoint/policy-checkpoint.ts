import type { RunConfig } from '../config/run-config';
import { CheckpointError, isFlowtuneError } from '../errors';
import { FlowPolicy } from '../policy/flow-policy';
import { MinMaxNormalizer, type MinMaxStats } from '../policy/normalizer';
import { obsFrameSize, resolveFlowPolicyOptions, type FlowPolicyOptions } from '../policy/options';
import { expectedParameterShapes } from '../policy/param-shapes';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { AdamMoments, JsonObject, OptimizerState, RunProgress, TensorData } from './checkpoint-types';
import type { FlowtuneContents } from './checkpoint-writer';
import { decodeFlowtune, inspectFlowtune } from './flowtune-file';
import { FLOWTUNE_FORMAT_VERSION, type CheckpointStage, type FlowtuneMetadata } from './metadata';
import { importTfjs } from './tfjs-format';
import type { DecodedFlowtune } from './checkpoint-reader';

export interface BundleSnapshot {
  bundle: PolicyBundle;
  task: string;
  stage: CheckpointStage;
  config: RunConfig;
  progress?: RunProgress;
  /** Optimizer steps; BC checkpoints count their pretraining steps. */
  step?: number;
  evalSummary?: Record<string, number>;
  /** The run layer's resume state (env and RNG states, history), stored as metadata `resume`. */
  resume?: JsonObject;
  /** The BC regularizer's frozen reference policy weights (ppo.bc_coef > 0), stored under `reference.`. */
  reference?: Map<string, TensorData>;
}

function adamToTensors(prefix: string, state: AdamMoments, shapes: ReadonlyMap<string, number[]>, out: Map<string, TensorData>): void {
  for (const [name, slot] of state.slots) {
    const shape = shapes.get(name) ?? [slot.m.length];
    out.set(`${prefix}.${name}.m`, { shape, data: slot.m });
    out.set(`${prefix}.${name}.v`, { shape, data: slot.v });
  }
}

/** The file contents of a policy bundle (DESIGN.md §6): weights, metadata and, when training, optimizer state. */
export async function bundleContents(snapshot: BundleSnapshot): Promise<FlowtuneContents> {
  const { policy, obsNormalizer, actionNormalizer } = snapshot.bundle;
  const options = policy.options;
  const tensors = await policy.getWeights();
  const progress = snapshot.progress;
  let optimizer: OptimizerState | undefined;
  if (progress) {
    const slotTensors = new Map<string, TensorData>();
    adamToTensors('actor', progress.actor, policy.shapes, slotTensors);
    adamToTensors('critic', progress.critic, policy.shapes, slotTensors);
    optimizer = { state: { actor: { kind: 'adam', step: progress.actor.step }, critic: { kind: 'adam', step: progress.critic.step } }, tensors: slotTensors };
  }
  const noise = snapshot.config.noise as unknown as JsonObject;
  const metadata: FlowtuneMetadata = {
    format_version: FLOWTUNE_FORMAT_VERSION,
    task: snapshot.task,
    shape_meta: {
      obs: options.obsEncoder === 'pointcloud'
        ? { point_cloud: { shape: [options.numPoints, 3] }, state: { shape: [options.nObsSteps, options.obsDim] } }
        : { state: { shape: [options.nObsSteps, options.obsDim] } },
      action: { shape: [options.actionDim] },
    },
    architecture: { ...(options as unknown as JsonObject), denoise_steps: snapshot.config.policy.denoise_steps, n_action_steps: snapshot.config.policy.n_action_steps },
    normalizer: { obs: obsNormalizer.toJSON() as unknown as JsonObject, action: actionNormalizer.toJSON() as unknown as JsonObject },
    noise,
    stage: snapshot.stage,
    training: { step: snapshot.step ?? progress?.actor.step ?? 0, iteration: progress?.iteration ?? 0, env_steps: progress?.envSteps ?? 0 },
    eval: snapshot.evalSummary ?? {},
    config: snapshot.config as unknown as JsonObject,
  };
  if (snapshot.resume) metadata.resume = snapshot.resume;
  return { tensors, metadata, optimizer, ...(snapshot.reference ? { reference: snapshot.reference } : {}) };
}

/** The architecture a checkpoint declares, validated like a hand-built one. */
function architectureOf(metadata: FlowtuneMetadata): FlowPolicyOptions {
  const { denoise_steps: _k, n_action_steps: _n, ...rest } = metadata.architecture as Record<string, unknown>;
  try {
    return resolveFlowPolicyOptions(rest as unknown as FlowPolicyOptions);
  } catch (error) {
    const field = isFlowtuneError(error) && 'field' in error ? String((error as { field: string }).field) : 'architecture';
    throw new CheckpointError(`checkpoint architecture field '${field}' is invalid: ${(error as Error).message}`);
  }
}

function normalizerOf(metadata: FlowtuneMetadata, key: 'obs' | 'action', dim: number): MinMaxNormalizer {
  const stats = (metadata.normalizer as Record<string, unknown>)[key] as MinMaxStats | undefined;
  if (!stats || !Array.isArray(stats.min) || !Array.isArray(stats.max) || stats.min.length !== dim || stats.max.length !== dim) {
    throw new CheckpointError(`checkpoint normalizer '${key}' must hold min and max lists of length ${dim}`);
  }
  try {
    return new MinMaxNormalizer(stats, `${key}_normalizer`);
  } catch (error) {
    throw new CheckpointError(`checkpoint normalizer '${key}' is invalid: ${(error as Error).message}`);
  }
}

/** Adam moments under `prefix`, each checked against the parameter shapes of the architecture. */
function adamFromTensors(prefix: string, decoded: DecodedFlowtune, paramShapes: ReadonlyMap<string, readonly number[]>): AdamMoments {
  const entry = decoded.optimizer?.state[prefix] as { step?: number } | undefined;
  const slots = new Map<string, { m: Float32Array; v: Float32Array }>();
  for (const [name, tensor] of decoded.optimizer?.tensors ?? []) {
    if (!name.startsWith(`${prefix}.`) || !name.endsWith('.m')) continue;
    const param = name.slice(prefix.length + 1, -2);
    const second = decoded.optimizer!.tensors.get(`${prefix}.${param}.v`);
    if (!second) throw new CheckpointError(`checkpoint optimizer state has '${name}' but no matching '.v' slot`);
    const expected = paramShapes.get(param);
    if (!expected) throw new CheckpointError(`checkpoint optimizer state '${prefix}' has moments for '${param}', which this policy architecture does not have`);
    for (const slot of [tensor, second]) {
      if (slot.shape.length !== expected.length || slot.shape.some((size, axis) => size !== expected[axis])) {
        throw new CheckpointError(`checkpoint optimizer state '${prefix}' for '${param}' has shape [${slot.shape.join(', ')}], but the parameter has shape [${expected.join(', ')}]`);
      }
    }
    slots.set(param, { m: tensor.data, v: second.data });
  }
  return { step: Number(entry?.step ?? 0), slots };
}

export interface LoadedBundle {
  bundle: PolicyBundle;
  metadata: FlowtuneMetadata;
  progress?: RunProgress;
}

/**
 * A checkpoint read and validated completely, as plain arrays: no tf variable exists yet.
 * Hosts decode a file once into this and build live policies from it when they need one.
 */
export interface PolicyCheckpoint {
  metadata: FlowtuneMetadata;
  architecture: FlowPolicyOptions;
  tensors: Map<string, TensorData>;
  obsNormalizer: MinMaxNormalizer;
  actionNormalizer: MinMaxNormalizer;
  /** Counters and optimizer moments, when the file was written during a run. */
  progress?: RunProgress;
  /** The BC regularizer's reference policy weights, shape-checked like the model's, when the run stored them. */
  reference?: Map<string, TensorData>;
}

function checkpointFromDecoded(decoded: DecodedFlowtune, architecture: FlowPolicyOptions): PolicyCheckpoint {
  const obsNormalizer = normalizerOf(decoded.metadata, 'obs', obsFrameSize(architecture));
  const actionNormalizer = normalizerOf(decoded.metadata, 'action', architecture.actionDim);
  // Optimizer moments are checked before any tf variable exists, like the weights.
  const paramShapes = expectedParameterShapes(architecture);
  const progress: RunProgress | undefined = decoded.optimizer !== undefined
    ? {
      iteration: decoded.metadata.training.iteration,
      envSteps: decoded.metadata.training.env_steps,
      actor: adamFromTensors('actor', decoded, paramShapes),
      critic: adamFromTensors('critic', decoded, paramShapes),
    }
    : undefined;
  const checkpoint: PolicyCheckpoint = { metadata: decoded.metadata, architecture, tensors: decoded.tensors, obsNormalizer, actionNormalizer, progress };
  if (decoded.reference) checkpoint.reference = decoded.reference;
  return checkpoint;
}

/** A live policy from a decoded checkpoint; `detachCriticInput` is a training switch that leaves shapes alone. */
export function bundleFromCheckpoint(checkpoint: PolicyCheckpoint, detachCriticInput?: boolean): LoadedBundle {
  const architecture = detachCriticInput === undefined ? checkpoint.architecture : { ...checkpoint.architecture, detachCriticInput };
  const policy = new FlowPolicy(architecture);
  try {
    policy.setWeights(checkpoint.tensors);
  } catch (error) {
    policy.dispose();
    throw new CheckpointError((error as Error).message);
  }
  const { obsNormalizer, actionNormalizer, metadata, progress } = checkpoint;
  return { bundle: { policy, obsNormalizer, actionNormalizer }, metadata, progress };
}

/** What the run's env gives and takes; a checkpoint for another observation or action space is refused. */
export interface ExpectedEnvShapes {
  obsEncoder?: FlowPolicyOptions['obsEncoder'];
  /** Values in one observation frame (for point clouds, N×3 points plus proprioception). */
  obsFrameSize?: number;
  actionDim?: number;
}

function describePolicy(architecture: FlowPolicyOptions): string {
  const net = architecture.velocityNet === 'ditx' ? 'DiT-X' : 'MLP';
  return `${net} policy on ${architecture.obsEncoder === 'pointcloud' ? 'point clouds' : 'state observations'}`;
}

function checkArchitecture(architecture: FlowPolicyOptions, expected: ExpectedEnvShapes | undefined): void {
  if (!expected) return;
  if (expected.obsEncoder !== undefined && expected.obsEncoder !== architecture.obsEncoder) {
    throw new CheckpointError(
      `checkpoint holds a ${describePolicy(architecture)}, but this run's env gives ${expected.obsEncoder === 'pointcloud' ? 'point clouds' : 'state observations'} (env.obs_type=${expected.obsEncoder}); use env.obs_type=${architecture.obsEncoder}`,
    );
  }
  if (expected.obsFrameSize !== undefined && expected.obsFrameSize !== obsFrameSize(architecture)) {
    throw new CheckpointError(`checkpoint expects observation frames of ${obsFrameSize(architecture)} values, but the run's env gives ${expected.obsFrameSize}`);
  }
  if (expected.actionDim !== undefined && expected.actionDim !== architecture.actionDim) {
    throw new CheckpointError(`checkpoint has actionDim ${architecture.actionDim}, but the run's env needs ${expected.actionDim}`);
  }
}

export interface LoadOptions {
  expectedTask?: string;
  /** What the run's env gives and takes; a checkpoint for another space is rejected. */
  expected?: ExpectedEnvShapes;
  /** Training switches that leave parameter shapes alone and may differ from the checkpoint's. */
  detachCriticInput?: boolean;
}

/** Reads and validates a .flowtune file for a run on `expectedTask` whose env has the given obs/action dims. */
export function decodePolicyCheckpoint(bytes: Uint8Array, options: LoadOptions = {}): PolicyCheckpoint {
  const summary = inspectFlowtune(bytes, { expectedTask: options.expectedTask });
  const architecture = architectureOf(summary.metadata);
  checkArchitecture(architecture, options.expected);
  const decoded = decodeFlowtune(bytes, { expectedShapes: expectedParameterShapes(architecture), expectedTask: options.expectedTask });
  return checkpointFromDecoded(decoded, architecture);
}

/** Reads and validates a tfjs model.json with its weights (the metadata rides in userDefinedMetadata). */
export function decodeTfjsPolicyCheckpoint(modelJson: string, weights: Uint8Array, options: LoadOptions = {}): PolicyCheckpoint {
  const firstPass = importTfjs(modelJson, weights, { expectedShapes: null, expectedTask: options.expectedTask });
  const architecture = architectureOf(firstPass.metadata);
  checkArchitecture(architecture, options.expected);
  const decoded = importTfjs(modelJson, weights, { expectedShapes: expectedParameterShapes(architecture), expectedTask: options.expectedTask });
  return checkpointFromDecoded(decoded, architecture);
}

/** Reads a .flowtune file straight into a live policy. */
export function loadBundle(bytes: Uint8Array, options: LoadOptions = {}): LoadedBundle {
  return bundleFromCheckpoint(decodePolicyCheckpoint(bytes, options), options.detachCriticInput);
}

/** Reads a tfjs model.json with its weights straight into a live policy. */
export function loadBundleFromTfjs(modelJson: string, weights: Uint8Array, options: LoadOptions = {}): LoadedBundle {
  return bundleFromCheckpoint(decodeTfjsPolicyCheckpoint(modelJson, weights, options), options.detachCriticInput);
}

/**
 * How a fine-tuned checkpoint's rollouts stacked observation histories, when its stored config says.
 * BC learns from demos stacked step by step whatever its stored config holds, so it decides nothing here.
 */
function storedHistorySpacing(metadata: FlowtuneMetadata): RunConfig['policy']['history_spacing'] | undefined {
  if (metadata.stage === 'bc') return undefined;
  const policy = (metadata.config as { policy?: { history_spacing?: unknown } } | undefined)?.policy;
  const spacing = policy?.history_spacing;
  return spacing === 'step' || spacing === 'decision' ? spacing : undefined;
}

/**
 * Run-config fields a checkpoint decides (its architecture, K, executed steps and history spacing), so a loaded
 * model runs as trained. Training switches that leave shapes alone (detach_critic_input) stay the run's.
 */
export function configFromCheckpoint(base: RunConfig, metadata: FlowtuneMetadata): RunConfig {
  const architecture = metadata.architecture as Record<string, unknown>;
  const arch = architectureOf(metadata);
  return {
    ...base,
    task: metadata.task as RunConfig['task'],
    env: { ...base.env, obs_type: arch.obsEncoder, ...(arch.obsEncoder === 'pointcloud' ? { num_points: arch.numPoints } : {}) },
    policy: {
      ...base.policy,
      horizon: arch.horizon,
      n_obs_steps: arch.nObsSteps,
      hidden: [...arch.velocityHidden],
      encoder_hidden: [...arch.encoderHidden],
      value_hidden: [...arch.valueHidden],
      noise_head_hidden: [...arch.noiseHidden],
      value_on: arch.valueOn,
      velocity_net: arch.velocityNet,
      ditx_dim: arch.ditxDim,
      ditx_depth: arch.ditxDepth,
      ditx_heads: arch.ditxHeads,
      denoise_steps: Number(architecture.denoise_steps ?? base.policy.denoise_steps),
      n_action_steps: Number(architecture.n_action_steps ?? base.policy.n_action_steps),
      history_spacing: storedHistorySpacing(metadata) ?? base.policy.history_spacing,
    },
  };
}
