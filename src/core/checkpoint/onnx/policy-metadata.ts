import onnxProto from 'onnx-proto';
import { CheckpointError } from '../../errors';
import { validateFlowtuneMetadata, type FlowtuneMetadata } from '../metadata';
import { storedDenoisedClamp, storedObsClip } from '../policy-checkpoint';
import type { ImageLayout } from '../../envs/task-types';
import type { OnnxPolicySpec } from './export-spec';
import { imageLayoutText, imagesShapeText } from './image-input-description';
import { checkPolicyGraphIo, checkSpecAgainstMetadata } from './policy-io-check';

/** The metadata_props key that holds the Flowtune metadata JSON. */
export const FLOWTUNE_METADATA_KEY = 'flowtune';

/** Spec fields stored as metadata_props, one integer each, under these keys. */
const COUNT_KEYS = {
  nObsSteps: 'n_obs_steps',
  obsFrameSize: 'obs_dim',
  numPoints: 'num_points',
  proprioDim: 'proprio_dim',
  horizon: 'horizon',
  actionDim: 'action_dim',
  nActionSteps: 'n_action_steps',
  denoiseSteps: 'denoise_steps',
} as const satisfies Partial<Record<keyof OnnxPolicySpec, string>>;

/** What a reader needs to know of one observation frame's values. */
function obsLayout(spec: OnnxPolicySpec): string {
  if (spec.obsType === 'state') return `each frame is the task's state vector of ${spec.obsFrameSize} values`;
  if (spec.obsType === 'image') return `each frame is ${spec.proprioDim} proprioception values; the camera images are the separate images input`;
  return `each frame is ${spec.numPoints} points as x, y, z in the world frame (${spec.numPoints * 3} values), then ${spec.proprioDim} proprioception values`;
}

/** The env.obs_type a spec's policy reads: an image policy's rgb or rgbd by its channels, else its encoder. */
function obsTypeProp(spec: OnnxPolicySpec): string {
  if (spec.obsType !== 'image') return spec.obsType;
  return spec.image?.channels === 4 ? 'rgbd' : 'rgb';
}

/** The metadata_props `inputs` line: obs, x0 (whose meaning the chain gives: `x0Meaning`) and an image policy's images. */
export function inputsText(spec: OnnxPolicySpec, x0Meaning: string): string {
  const images = spec.image ? `; images ${imagesShapeText(spec.image)}, the camera images as the env renders them (see image_layout)` : '';
  return `obs float32 [batch, ${spec.nObsSteps}, ${spec.obsFrameSize}] in env units, oldest frame first; x0 float32 [batch, ${spec.horizon}, ${spec.actionDim}], ${x0Meaning}${images}`;
}

/** An image policy's image props: the cameras (comma-separated, in layout order), side and channels, and the layout in words. */
function imageProps(image: ImageLayout): Record<string, string> {
  return { image_cameras: image.cameras.join(','), image_size: String(image.size), image_channels: String(image.channels), image_layout: imageLayoutText(image) };
}

/**
 * The model's metadata_props: task, control mode, shapes (one integer per key, plus readable
 * input and output lines) and, under `flowtune`, the checkpoint metadata JSON. A resumed run's
 * env and RNG state is dropped: it says nothing about the policy.
 */
export function policyMetadataProps(spec: OnnxPolicySpec, metadata: FlowtuneMetadata): onnxProto.onnx.IStringStringEntryProto[] {
  const { resume: _resume, ...kept } = metadata;
  const props: Record<string, string> = {
    task: spec.task,
    control_mode: spec.controlMode,
    obs_type: obsTypeProp(spec),
    obs_layout: obsLayout(spec),
    inputs: inputsText(spec, 'the initial noise at t = 1 (N(0, I) draws, or zeros for a fixed policy)'),
    outputs: `actions float32 [batch, ${spec.nActionSteps}, ${spec.actionDim}] in env units, executed in order (Flowtune's envs clip each value to [-1, 1])`,
    ...(spec.image ? imageProps(spec.image) : {}),
  };
  for (const [field, key] of Object.entries(COUNT_KEYS)) props[key] = String(spec[field as keyof typeof COUNT_KEYS]);
  props[FLOWTUNE_METADATA_KEY] = JSON.stringify(kept);
  return Object.entries(props).map(([key, value]) => ({ key, value }));
}

/** An exported policy read back: its spec, its Flowtune metadata, and the versions it declares. */
export interface OnnxPolicyFile {
  spec: OnnxPolicySpec;
  metadata: FlowtuneMetadata;
  irVersion: number;
  opsetVersion: number;
}

function decodeModel(bytes: Uint8Array): onnxProto.onnx.ModelProto {
  try {
    return onnxProto.onnx.ModelProto.decode(bytes);
  } catch (error) {
    throw new CheckpointError(`the file is not a readable ONNX model (${(error as Error).message})`);
  }
}

function countProp(props: ReadonlyMap<string, string>, key: string): number {
  const value = Number(props.get(key));
  if (!Number.isSafeInteger(value) || value < 0) throw new CheckpointError(`the ONNX model's metadata_props '${key}' must be a non-negative integer, got ${JSON.stringify(props.get(key))}`);
  return value;
}

/** An image policy's layout from its metadata_props; CheckpointError (naming the key) when one is missing or contradicts obs_type. */
function readImageProps(props: ReadonlyMap<string, string>, obsType: 'rgb' | 'rgbd'): ImageLayout {
  const cameras = (props.get('image_cameras') ?? '').split(',');
  if (cameras.some((name) => name === '')) throw new CheckpointError(`the ONNX model's metadata_props 'image_cameras' must name its cameras, comma-separated, got ${JSON.stringify(props.get('image_cameras'))}`);
  const channels = countProp(props, 'image_channels');
  const wanted = obsType === 'rgbd' ? 4 : 3;
  if (channels !== wanted) throw new CheckpointError(`the ONNX model's metadata_props 'image_channels' is ${channels}, but obs_type ${obsType} has ${wanted}`);
  return { cameras, size: countProp(props, 'image_size'), channels: wanted };
}

/** Reads the metadata of an ONNX policy Flowtune exported; throws CheckpointError for any other file. */
export function readOnnxPolicy(bytes: Uint8Array): OnnxPolicyFile {
  const model = decodeModel(bytes);
  const props = new Map(model.metadataProps.map((entry) => [entry.key ?? '', entry.value ?? '']));
  const json = props.get(FLOWTUNE_METADATA_KEY);
  if (json === undefined) throw new CheckpointError(`the ONNX model has no '${FLOWTUNE_METADATA_KEY}' metadata_props entry, so Flowtune did not export it`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new CheckpointError(`the ONNX model's '${FLOWTUNE_METADATA_KEY}' metadata_props entry is not valid JSON`);
  }
  const metadata = validateFlowtuneMetadata(parsed);
  const obsType = props.get('obs_type');
  if (obsType !== 'state' && obsType !== 'pointcloud' && obsType !== 'rgb' && obsType !== 'rgbd') {
    throw new CheckpointError(`the ONNX model's metadata_props 'obs_type' must be state, pointcloud, rgb or rgbd, got ${JSON.stringify(obsType)}`);
  }
  const counts = Object.fromEntries(Object.entries(COUNT_KEYS).map(([field, key]) => [field, countProp(props, key)])) as Record<keyof typeof COUNT_KEYS, number>;
  const image = obsType === 'rgb' || obsType === 'rgbd' ? readImageProps(props, obsType) : undefined;
  // The clamps are not metadata_props counts: the graph holds them, and the Flowtune metadata says which they are.
  const spec: OnnxPolicySpec = {
    task: props.get('task') ?? '', controlMode: props.get('control_mode') ?? '', obsType: image ? 'image' : obsType as 'state' | 'pointcloud', ...counts,
    denoisedClamp: storedDenoisedClamp(metadata), obsClip: storedObsClip(metadata), ...(image ? { image } : {}),
  };
  checkSpecAgainstMetadata(spec, metadata);
  checkPolicyGraphIo(model.graph ?? {}, spec);
  const opset = model.opsetImport.find((entry) => (entry.domain ?? '') === '');
  return { spec, metadata, irVersion: Number(model.irVersion), opsetVersion: Number(opset?.version ?? 0) };
}
