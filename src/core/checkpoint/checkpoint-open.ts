/**
 * Opening a checkpoint file (DESIGN.md §2 "One path for every host", §6): its header is parsed and
 * checked once (layout, metadata, task, declared architecture), then its tensors are decoded and
 * validated against the env a run gives, before any tf variable exists. Hosts decode a file once
 * into a PolicyCheckpoint and build live policies from that.
 */
import { CheckpointError } from '../errors';
import { MinMaxNormalizer, type MinMaxStats } from '../policy/normalizer';
import { obsFrameSize, obsTypeOfPolicy, type FlowPolicyOptions } from '../policy/options';
import { expectedParameterShapes } from '../policy/param-shapes';
import type { AdamMoments, RunProgress, TensorData } from './checkpoint-types';
import type { CheckpointFile } from './checkpoint-file';
import { readChecked, type DecodedFlowtune } from './checkpoint-reader';
import type { FlowtuneMetadata } from './metadata';

export type { CheckpointFile, CheckpointFiles } from './checkpoint-file';

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
export function adamFromTensors(prefix: string, decoded: DecodedFlowtune, paramShapes: ReadonlyMap<string, readonly number[]>): AdamMoments {
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

/**
 * A checkpoint read and validated completely, as plain arrays: no tf variable exists yet.
 * Hosts decode a file once into this and build live policies from it when they need one.
 */
export interface PolicyCheckpoint {
  /** The family whose nets these are: flow (velocity) or diffusion (ε, DESIGN.md §17). */
  kind: 'flow' | 'diffusion';
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
  const kind = architecture.prediction === 'epsilon' ? 'diffusion' : 'flow';
  const checkpoint: PolicyCheckpoint = { kind, metadata: decoded.metadata, architecture, tensors: decoded.tensors, obsNormalizer, actionNormalizer, progress };
  if (decoded.reference) checkpoint.reference = decoded.reference;
  return checkpoint;
}

/** What the run's env gives and takes; a checkpoint for another observation or action space is refused. */
export interface ExpectedEnvShapes {
  obsEncoder?: FlowPolicyOptions['obsEncoder'];
  /** Values in one observation frame (for point clouds, N×3 points plus proprioception). */
  obsFrameSize?: number;
  actionDim?: number;
  /** Image observations: the cameras ('default' matches any), image size and channels the env gives. */
  image?: ImageShape;
}

/** Cameras, size and channels of one observation's images. */
type ImageShape = { readonly cameras: readonly string[]; readonly size: number; readonly channels: 3 | 4 };

const OBSERVATION_WORDS: Record<FlowPolicyOptions['obsEncoder'], string> = { state: 'state observations', pointcloud: 'point clouds', image: 'camera images' };

function describePolicy(architecture: FlowPolicyOptions): string {
  const net = architecture.velocityNet === 'ditx' ? 'DiT-X' : architecture.velocityNet === 'unet1d' ? 'UNet1D' : 'MLP';
  return `${net} policy on ${OBSERVATION_WORDS[architecture.obsEncoder]}`;
}

const imageWords = (image: ImageShape) => `${image.cameras.join(', ')} at ${image.size}×${image.size} ${image.channels === 4 ? 'rgbd' : 'rgb'}`;

/** The checkpoint's cameras, image size and channels against the env's; 'default' cameras match the checkpoint's. */
function checkImages(architecture: FlowPolicyOptions, expected: NonNullable<ExpectedEnvShapes['image']>): void {
  const image = architecture.image!;
  const cameras = expected.cameras.length === 1 && expected.cameras[0] === 'default' ? image.cameras : expected.cameras;
  const same = cameras.length === image.cameras.length && cameras.every((name, index) => name === image.cameras[index])
    && expected.size === image.size && expected.channels === image.channels;
  if (!same) {
    throw new CheckpointError(
      `checkpoint's policy sees ${imageWords(image)}, but this run's env gives ${imageWords({ ...expected, cameras })}; use env.camera=${image.cameras.join(',')} env.image_size=${image.size} env.obs_type=${obsTypeOfPolicy(architecture)}`,
    );
  }
}

function checkArchitecture(architecture: FlowPolicyOptions, expected: ExpectedEnvShapes | undefined): void {
  if (!expected) return;
  if (expected.obsEncoder !== undefined && expected.obsEncoder !== architecture.obsEncoder) {
    throw new CheckpointError(
      `checkpoint holds a ${describePolicy(architecture)}, but this run's env gives ${OBSERVATION_WORDS[expected.obsEncoder]} (env.obs_type=${expected.obsEncoder === 'image' ? 'rgb or rgbd' : expected.obsEncoder}); use env.obs_type=${obsTypeOfPolicy(architecture)}`,
    );
  }
  if (expected.image && architecture.image) checkImages(architecture, expected.image);
  if (expected.obsFrameSize !== undefined && expected.obsFrameSize !== obsFrameSize(architecture)) {
    throw new CheckpointError(`checkpoint expects observation frames of ${obsFrameSize(architecture)} values, but the run's env gives ${expected.obsFrameSize}`);
  }
  if (expected.actionDim !== undefined && expected.actionDim !== architecture.actionDim) {
    throw new CheckpointError(`checkpoint has actionDim ${architecture.actionDim}, but the run's env needs ${expected.actionDim}`);
  }
}

/** Decodes a flow checkpoint file's tensors, validated against the env a run gives (`expected`), as plain arrays. */
export function decodeCheckpoint(file: CheckpointFile, expected?: ExpectedEnvShapes): PolicyCheckpoint {
  if (file.kind === 'gaussian') throw new CheckpointError(`${file.name} holds a gaussian policy, not a flow or diffusion policy`);
  checkArchitecture(file.architecture, expected);
  const decoded = readChecked(file.checked, file.data, { expectedShapes: expectedParameterShapes(file.architecture) });
  return checkpointFromDecoded(decoded, file.architecture);
}
