import { fieldValueProblem } from '../config/field-values';
import type { RunConfig } from '../config/run-config';
import { CheckpointError } from '../errors';
import { FlowPolicy } from '../policy/flow-policy';
import type { MinMaxStats } from '../policy/normalizer';
import { obsTypeOfPolicy, type FlowPolicyOptions } from '../policy/options';
import { withObsClip, type PolicyBundle } from '../policy/policy-bundle';
import type { AdamMoments, JsonObject, OptimizerState, RunProgress, TensorData } from './checkpoint-types';
import type { FlowtuneContents } from './checkpoint-writer';
import type { PolicyCheckpoint } from './checkpoint-open';
import { flowArchitectureOf } from './checkpoint-file';
import { FLOWTUNE_FORMAT_VERSION, type CheckpointStage, type FlowtuneMetadata } from './metadata';
import { getTask, hasTask } from '../envs/task-registry';

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

/** Adam moments as checkpoint tensors `${prefix}.${param}.m|v`, shaped like their parameters. */
export function adamToTensors(prefix: string, state: AdamMoments, shapes: ReadonlyMap<string, number[]>, out: Map<string, TensorData>): void {
  for (const [name, slot] of state.slots) {
    const shape = shapes.get(name) ?? [slot.m.length];
    out.set(`${prefix}.${name}.m`, { shape, data: slot.m });
    out.set(`${prefix}.${name}.v`, { shape, data: slot.v });
  }
}

/** What `.flowtune` metadata says of a flow policy (DESIGN.md §6), from its parts. */
export interface FlowMetadataParts {
  options: FlowPolicyOptions;
  normalizer: { obs: MinMaxStats; action: MinMaxStats };
  task: string;
  stage: CheckpointStage;
  config: RunConfig;
  training: FlowtuneMetadata['training'];
  evalSummary?: Record<string, number>;
}

/** The metadata of a flow checkpoint; one writer for a live bundle and for an imported peer policy. */
export function flowMetadata(parts: FlowMetadataParts): FlowtuneMetadata {
  const { options, config } = parts;
  return {
    format_version: FLOWTUNE_FORMAT_VERSION,
    task: parts.task,
    ...(hasTask(parts.task) ? { task_hash: getTask(parts.task).hash } : {}),
    shape_meta: {
      obs: {
        ...(options.obsEncoder === 'pointcloud' ? { point_cloud: { shape: [options.numPoints, 3] } } : {}),
        ...(options.image ? { image: { shape: [options.image.cameras.length, options.image.size, options.image.size, options.image.channels] } } : {}),
        state: { shape: [options.nObsSteps, options.obsDim] },
      },
      action: { shape: [options.actionDim] },
    },
    architecture: { ...(options.prediction === 'epsilon' ? { kind: 'diffusion' } : {}), ...(options as unknown as JsonObject), denoise_steps: config.policy.denoise_steps, n_action_steps: config.policy.n_action_steps },
    normalizer: { obs: parts.normalizer.obs as unknown as JsonObject, action: parts.normalizer.action as unknown as JsonObject },
    noise: config.noise as unknown as JsonObject,
    stage: parts.stage,
    training: parts.training,
    eval: parts.evalSummary ?? {},
    config: config as unknown as JsonObject,
  };
}

/** The file contents of a policy bundle (DESIGN.md §6): weights, metadata and, when training, optimizer state. */
export async function bundleContents(snapshot: BundleSnapshot): Promise<FlowtuneContents> {
  const { policy, obsNormalizer, actionNormalizer } = snapshot.bundle;
  const tensors = await policy.getWeights();
  const progress = snapshot.progress;
  let optimizer: OptimizerState | undefined;
  if (progress) {
    const slotTensors = new Map<string, TensorData>();
    adamToTensors('actor', progress.actor, policy.shapes, slotTensors);
    adamToTensors('critic', progress.critic, policy.shapes, slotTensors);
    optimizer = { state: { actor: { kind: 'adam', step: progress.actor.step }, critic: { kind: 'adam', step: progress.critic.step } }, tensors: slotTensors };
  }
  const metadata = flowMetadata({
    options: policy.options,
    normalizer: { obs: obsNormalizer.toJSON(), action: actionNormalizer.toJSON() },
    task: snapshot.task,
    stage: snapshot.stage,
    config: snapshot.config,
    training: { step: snapshot.step ?? progress?.actor.step ?? 0, iteration: progress?.iteration ?? 0, env_steps: progress?.envSteps ?? 0 },
    evalSummary: snapshot.evalSummary,
  });
  if (snapshot.resume) metadata.resume = snapshot.resume;
  return { tensors, metadata, optimizer, ...(snapshot.reference ? { reference: snapshot.reference } : {}) };
}

export interface LoadedBundle {
  bundle: PolicyBundle;
  metadata: FlowtuneMetadata;
  progress?: RunProgress;
}

/**
 * A live policy from a decoded checkpoint. A run's `detach_critic_input` (a training switch that leaves shapes alone)
 * and `obs_clip` (the observation clamp, 0 = none) apply when given; without them the checkpoint's own stand.
 */
export function bundleFromCheckpoint(checkpoint: PolicyCheckpoint, run?: Pick<RunConfig['policy'], 'detach_critic_input' | 'obs_clip'>): LoadedBundle {
  const architecture = run === undefined ? checkpoint.architecture : { ...checkpoint.architecture, detachCriticInput: run.detach_critic_input };
  let policy: FlowPolicy;
  try {
    policy = new FlowPolicy(architecture, checkpoint.tensors);
  } catch (error) {
    throw new CheckpointError((error as Error).message);
  }
  const { obsNormalizer, actionNormalizer, metadata, progress } = checkpoint;
  const bundle = { policy, obsNormalizer, actionNormalizer };
  return { bundle: run === undefined ? bundle : withObsClip(bundle, run.obs_clip), metadata, progress };
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
 * The denoised-action clamp c of the run that wrote the checkpoint (`policy.denoised_clamp`), part of its deterministic
 * policy; 0 (off) when the file does not hold a valid one, as files from before the option.
 */
export function storedDenoisedClamp(metadata: FlowtuneMetadata): number {
  const policy = (metadata.config as { policy?: { denoised_clamp?: unknown } } | undefined)?.policy;
  const clamp = policy?.denoised_clamp;
  return typeof clamp === 'number' && fieldValueProblem('policy.denoised_clamp', clamp) === null ? clamp : 0;
}

/**
 * The observation clamp a chain policy's normalizer holds (`policy.obs_clip`); 0 (off) when it holds none. A Gaussian
 * policy's obs stats hold its running normalization's clip instead (ppo.norm_clip), which is not this.
 */
export function storedObsClip(metadata: FlowtuneMetadata): number {
  if ((metadata.architecture as { kind?: unknown }).kind === 'gaussian') return 0;
  const clip = (metadata.normalizer as { obs?: { clip?: unknown } } | undefined)?.obs?.clip;
  return typeof clip === 'number' && fieldValueProblem('policy.obs_clip', clip) === null ? clip : 0;
}

/**
 * The observation a point-cloud policy was trained on: its stored config's depth cameras when it learnt
 * from a depth camera's cloud (env.obs_type=depth_pointcloud), else the surface-sampled cloud.
 */
function storedPointCloudEnv(metadata: FlowtuneMetadata): Partial<RunConfig['env']> {
  const env = (metadata.config as { env?: { obs_type?: unknown; camera?: unknown; image_size?: unknown } } | undefined)?.env;
  if (env?.obs_type !== 'depth_pointcloud') return { obs_type: 'pointcloud' };
  const camera = fieldValueProblem('env.camera', env.camera) === null ? { camera: env.camera as string } : {};
  const imageSize = fieldValueProblem('env.image_size', env.image_size) === null ? { image_size: env.image_size as number } : {};
  return { obs_type: 'depth_pointcloud', ...camera, ...imageSize };
}

/**
 * Run-config fields a checkpoint decides (its architecture, K, executed steps, history spacing, denoised-action
 * clamp and observation clamp), so a loaded model runs as trained. Training switches that leave shapes alone (detach_critic_input) stay the run's.
 */
export function configFromCheckpoint(base: RunConfig, metadata: FlowtuneMetadata): RunConfig {
  const architecture = metadata.architecture as Record<string, unknown>;
  const arch = flowArchitectureOf(metadata);
  return {
    ...base,
    task: metadata.task as RunConfig['task'],
    env: {
      ...base.env, obs_type: obsTypeOfPolicy(arch),
      ...(arch.obsEncoder === 'pointcloud' ? { ...storedPointCloudEnv(metadata), num_points: arch.numPoints } : {}),
      ...(arch.image ? { camera: arch.image.cameras.join(','), image_size: arch.image.size } : {}),
    },
    policy: {
      ...base.policy,
      ...(arch.image ? { cnn_channels: [...arch.image.convChannels], image_features: arch.image.featureDim } : {}),
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
      unet_dims: [...arch.unetDims],
      unet_kernel: arch.unetKernel,
      unet_groups: arch.unetGroups,
      denoise_steps: Number(architecture.denoise_steps ?? base.policy.denoise_steps),
      n_action_steps: Number(architecture.n_action_steps ?? base.policy.n_action_steps),
      history_spacing: storedHistorySpacing(metadata) ?? base.policy.history_spacing,
      denoised_clamp: storedDenoisedClamp(metadata),
      obs_clip: storedObsClip(metadata),
    },
  };
}
