import { controlForActionDim } from '../../envs/task-controls';
import { getTask, hasTask } from '../../envs/task-registry';
import { CheckpointError } from '../../errors';
import { obsFrameSize, type FlowPolicyOptions } from '../../policy/options';
import type { PolicyBundle } from '../../policy/policy-bundle';
import type { ImageLayout } from '../../envs/task-types';
import type { FlowtuneMetadata } from '../metadata';
import { storedDenoisedClamp, storedObsClip } from '../policy-checkpoint';

/** What an exported policy graph takes and gives, and the settings baked into it. */
export interface OnnxPolicySpec {
  task: string;
  /** The name of the task's control the actions are for (as the task names it). */
  controlMode: string;
  obsType: FlowPolicyOptions['obsEncoder'];
  nObsSteps: number;
  /** Values per observation frame: the state, or N×3 points then proprioception. */
  obsFrameSize: number;
  /** Points per frame (point clouds; 0 for state). */
  numPoints: number;
  /** Proprioception values per frame after the points (point clouds), or the state size. */
  proprioDim: number;
  horizon: number;
  actionDim: number;
  /** Executed positions of each chunk, the output's second axis. */
  nActionSteps: number;
  /** Euler steps K unrolled in the graph. */
  denoiseSteps: number;
  /** c > 0: every Euler step is clamped to [−c, c] (`policy.denoised_clamp` of the checkpoint's run); 0 = none. */
  denoisedClamp: number;
  /** c > 0: the normalized observations are clamped to [−c, c] (`policy.obs_clip`, held by the obs normalizer); 0 = none. */
  obsClip: number;
  /** Image policies only: the uint8 camera images the graph's `images` input takes [batch, cameras, size, size, channels]. */
  image?: ImageLayout;
}

const VELOCITY_NETS: readonly string[] = ['mlp', 'ditx', 'reflow_mlp', 'unet1d'];
const OBS_ENCODERS: readonly string[] = ['state', 'pointcloud', 'image'];

/**
 * The control the actions are for: the checkpoint's run's control when it takes actions of this
 * size, else the task's control of that size (the action size decides, as it does for a run).
 * For a task this build does not have, the run's control name as recorded.
 */
function controlModeOf(metadata: FlowtuneMetadata, actionDim: number): string {
  const stored = (metadata.config as { env?: { control_mode?: unknown } } | undefined)?.env?.control_mode;
  // A task not loaded here: the run's control as recorded, 'default' included.
  if (!hasTask(metadata.task) && typeof stored === 'string') return stored;
  const known = typeof stored === 'string' && stored !== 'default' ? stored : undefined;
  if (known && getTask(metadata.task).controls.get(known)?.dim === actionDim) return known;
  const mode = hasTask(metadata.task) ? controlForActionDim(metadata.task, actionDim) : undefined;
  if (!mode) throw new CheckpointError(`task '${metadata.task}' has no control that takes ${actionDim}-D actions, so the export cannot say what the actions are for`);
  return mode;
}

function storedCount(metadata: FlowtuneMetadata, field: 'denoise_steps' | 'n_action_steps'): number {
  const value = metadata.architecture[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new CheckpointError(`checkpoint architecture field '${field}' must be a positive integer for ONNX export, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * The export spec of a live policy and its checkpoint metadata; throws CheckpointError (one
 * sentence) for anything the graph could not reproduce exactly.
 */
export function onnxPolicySpec(bundle: PolicyBundle, metadata: FlowtuneMetadata): OnnxPolicySpec {
  const options = bundle.policy.options;
  if (!VELOCITY_NETS.includes(options.velocityNet)) {
    throw new CheckpointError(`ONNX export supports the velocity nets ${VELOCITY_NETS.join(', ')}, not '${String(options.velocityNet)}'`);
  }
  if (!OBS_ENCODERS.includes(options.obsEncoder)) {
    throw new CheckpointError(`ONNX export supports the observation encoders ${OBS_ENCODERS.join(', ')}, not '${String(options.obsEncoder)}'`);
  }
  const denoiseSteps = storedCount(metadata, 'denoise_steps');
  const nActionSteps = storedCount(metadata, 'n_action_steps');
  if (nActionSteps > options.horizon) {
    throw new CheckpointError(`n_action_steps (${nActionSteps}) must be at most the horizon (${options.horizon}) for ONNX export`);
  }
  const frameSize = obsFrameSize(options);
  if (bundle.obsNormalizer.dim !== frameSize || bundle.actionNormalizer.dim !== options.actionDim) {
    throw new CheckpointError(`the normalizers cover ${bundle.obsNormalizer.dim} observation and ${bundle.actionNormalizer.dim} action values, but the policy takes frames of ${frameSize} and gives ${options.actionDim}`);
  }
  const obsClip = bundle.obsNormalizer.clip ?? 0;
  if (obsClip !== storedObsClip(metadata)) {
    throw new CheckpointError(`the policy clamps its normalized observations to ${obsClip > 0 ? `±${obsClip}` : 'no bound'}, but the metadata it is exported with says policy.obs_clip=${storedObsClip(metadata)}`);
  }
  const envActionDim = metadata.shape_meta.action.shape[0];
  if (envActionDim !== options.actionDim) {
    throw new CheckpointError(`the policy gives ${options.actionDim}-D actions but the checkpoint's env takes ${envActionDim}-D ones, and ONNX export has no mapping between them`);
  }
  return {
    task: metadata.task,
    controlMode: controlModeOf(metadata, options.actionDim),
    obsType: options.obsEncoder,
    nObsSteps: options.nObsSteps,
    obsFrameSize: frameSize,
    numPoints: options.obsEncoder === 'pointcloud' ? options.numPoints : 0,
    proprioDim: options.obsDim,
    horizon: options.horizon,
    actionDim: options.actionDim,
    nActionSteps,
    denoiseSteps,
    denoisedClamp: storedDenoisedClamp(metadata),
    obsClip,
    // The encoder's own cameras, size and channels: the layout the rollout feeds it (envs/camera/image-layout.ts).
    ...(options.image ? { image: { cameras: [...options.image.cameras], size: options.image.size, channels: options.image.channels } } : {}),
  };
}
