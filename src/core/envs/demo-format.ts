/**
 * Demonstration dataset file (`.demos`), safetensors-style:
 *   bytes [0, 8):        header length H, unsigned 64-bit little-endian
 *   bytes [8, 8 + H):    UTF-8 JSON header, space-padded to a multiple of 8
 *   bytes [8 + H, end):  raw little-endian tensors, in header order
 * The header maps each tensor name to {dtype, shape, data_offsets: [begin, end)}
 * (offsets relative to the data section) and holds `__metadata__` with the task
 * metadata. Pure functions on Uint8Array, so Node and the browser share them.
 * `terminated` [E] (how each episode ended: 1 terminated, 0 truncated) is written when the set
 * knows it; files without it stay readable, and readers that predate it skip it. Image demos
 * (obs_mode rgb, rgbd) add `images` U8 [T, cameras, size, size, channels], as `__metadata__`'s
 * `image` declares them.
 */
import { ConfigError } from '../errors';
import { checkDemoMetadata, DEMO_FORMAT, DEMO_FORMAT_VERSION, type DemoMetadata } from './demo-metadata';
import type { Demonstrations } from './expert-rollout';
import type { ObsSlice } from './task-types';
import { getTask } from './task-registry';
import { imageBytes } from './camera/image-layout';

export { DEMO_FORMAT, DEMO_FORMAT_VERSION, type DemoMetadata } from './demo-metadata';

/** Headers above this size are rejected before parsing. */
export const MAX_DEMO_HEADER_BYTES = 1 << 20;

type DType = 'F32' | 'I32' | 'U8';
const DTYPE_BYTES: Record<DType, number> = { F32: 4, I32: 4, U8: 1 };

interface TensorEntry {
  dtype: DType;
  shape: number[];
  data_offsets: [number, number];
}

const TENSORS = ['obs', 'images', 'actions', 'rewards', 'episode_starts', 'success', 'seeds', 'terminated'] as const;
type TensorName = (typeof TENSORS)[number];
type TensorData = { dtype: DType; shape: number[]; array: Float32Array | Int32Array | Uint8Array };

function tensorsOf(demos: Demonstrations): Partial<Record<TensorName, TensorData>> {
  const steps = demos.actions.length / demos.actionDim;
  const episodes = demos.success.length;
  if (demos.terminated && demos.terminated.length !== episodes) {
    throw new ConfigError('demos', `demos hold ${demos.terminated.length} episode ends (terminated) for ${episodes} episodes`);
  }
  const image = demos.imageSpec;
  if (Boolean(image) !== Boolean(demos.images)) throw new ConfigError('demos', 'demos with camera images need both their images and their camera layout (imageSpec)');
  const imageShape = image ? [steps, image.cameras.length, image.size, image.size, image.channels] : [];
  if (image && demos.images!.length !== imageShape.reduce((product, size) => product * size, 1)) {
    throw new ConfigError('demos', `demos hold ${demos.images!.length} image bytes; ${steps} steps of [${imageShape.slice(1).join(', ')}] take ${imageShape.reduce((product, size) => product * size, 1)}`);
  }
  return {
    obs: { dtype: 'F32', shape: [steps, demos.obsDim], array: demos.obs },
    ...(image ? { images: { dtype: 'U8', shape: imageShape, array: demos.images! } as TensorData } : {}),
    actions: { dtype: 'F32', shape: [steps, demos.actionDim], array: demos.actions },
    rewards: { dtype: 'F32', shape: [steps], array: demos.rewards },
    episode_starts: { dtype: 'I32', shape: [episodes + 1], array: demos.episodeStarts },
    success: { dtype: 'U8', shape: [episodes], array: demos.success },
    seeds: { dtype: 'I32', shape: [episodes], array: demos.seeds },
    ...(demos.terminated ? { terminated: { dtype: 'U8', shape: [episodes], array: demos.terminated } as TensorData } : {}),
  };
}

export function writeDemoFile(demos: Demonstrations, metadata: DemoMetadata): Uint8Array {
  const tensors = tensorsOf(demos);
  const names = TENSORS.filter((name) => tensors[name] !== undefined);
  const header: Record<string, unknown> = { __metadata__: { flowtune_demos: JSON.stringify(metadata) } };
  let offset = 0;
  for (const name of names) {
    const tensor = tensors[name]!;
    // 4-byte alignment of every tensor keeps typed-array views possible.
    offset = Math.ceil(offset / 4) * 4;
    const bytes = tensor.array.length * DTYPE_BYTES[tensor.dtype];
    header[name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  const encoder = new TextEncoder();
  while (encoder.encode(json).length % 8 !== 0) json += ' ';
  const headerBytes = encoder.encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  const dataStart = 8 + headerBytes.length;
  for (const name of names) {
    const tensor = tensors[name]!;
    const [begin] = (header[name] as TensorEntry).data_offsets;
    if (tensor.dtype === 'U8') {
      out.set(tensor.array as Uint8Array, dataStart + begin);
      continue;
    }
    for (let element = 0; element < tensor.array.length; element++) {
      const at = dataStart + begin + element * DTYPE_BYTES[tensor.dtype];
      if (tensor.dtype === 'F32') view.setFloat32(at, tensor.array[element], true);
      else if (tensor.dtype === 'I32') view.setInt32(at, tensor.array[element], true);
      else view.setUint8(at, tensor.array[element]);
    }
  }
  return out;
}

function fail(message: string): never {
  throw new ConfigError('demos', message);
}

export function readDemoFile(bytes: Uint8Array): { demos: Demonstrations; metadata: DemoMetadata } {
  if (bytes.length < 8) fail(`demo file is ${bytes.length} bytes; it must start with an 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > MAX_DEMO_HEADER_BYTES) fail(`demo header length ${headerLength} exceeds the ${MAX_DEMO_HEADER_BYTES}-byte cap`);
  if (8 + headerLength > bytes.length) fail(`demo header length ${headerLength} runs past the end of the ${bytes.length}-byte file`);
  let header: Record<string, unknown>;
  let parsed: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<string, unknown>;
    parsed = JSON.parse((header.__metadata__ as { flowtune_demos: string }).flowtune_demos);
  } catch {
    fail('demo header is not valid JSON with __metadata__.flowtune_demos');
  }
  const metadata = checkDemoMetadata(parsed);
  const dataStart = 8 + headerLength;
  const dataLength = bytes.length - dataStart;
  const read = (name: TensorName, dtype: DType, shape: number[]): Float32Array | Int32Array | Uint8Array => {
    const entry = header[name] as TensorEntry | undefined;
    if (typeof entry !== 'object' || entry === null) fail(`demo file has no tensor '${name}'`);
    if (entry.dtype !== dtype) fail(`demo tensor '${name}' has dtype ${entry.dtype}; expected ${dtype}`);
    if (!Array.isArray(entry.shape) || entry.shape.length !== shape.length || entry.shape.some((size, axis) => size !== shape[axis])) {
      fail(`demo tensor '${name}' has shape [${String(entry.shape)}]; expected [${shape.join(', ')}]`);
    }
    const count = shape.reduce((product, size) => product * size, 1);
    const [begin, end]: unknown[] = Array.isArray(entry.data_offsets) ? entry.data_offsets : [];
    if (typeof begin !== 'number' || typeof end !== 'number' || !Number.isInteger(begin) || !Number.isInteger(end)
      || begin < 0 || end > dataLength || end - begin !== count * DTYPE_BYTES[dtype]) {
      fail(`demo tensor '${name}' has data_offsets [${String(entry.data_offsets)}] outside the ${dataLength}-byte data section or not matching its shape`);
    }
    const at = dataStart + begin;
    if (dtype === 'U8') return bytes.slice(at, at + count);
    const out = dtype === 'F32' ? new Float32Array(count) : new Int32Array(count);
    for (let element = 0; element < count; element++) {
      out[element] = dtype === 'F32' ? view.getFloat32(at + 4 * element, true) : view.getInt32(at + 4 * element, true);
    }
    return out;
  };
  const { steps, episodes, obs_dim: obsDim, action_dim: actionDim, image } = metadata;
  const demos: Demonstrations = {
    task: metadata.task,
    obsMode: metadata.obs_mode,
    obsDim,
    actionDim,
    obs: read('obs', 'F32', [steps, obsDim]) as Float32Array,
    ...(image ? { imageSpec: { ...image, cameras: [...image.cameras] }, images: read('images', 'U8', [steps, image.cameras.length, image.size, image.size, image.channels]) as Uint8Array } : {}),
    actions: read('actions', 'F32', [steps, actionDim]) as Float32Array,
    rewards: read('rewards', 'F32', [steps]) as Float32Array,
    episodeStarts: read('episode_starts', 'I32', [episodes + 1]) as Int32Array,
    success: read('success', 'U8', [episodes]) as Uint8Array,
    seeds: read('seeds', 'I32', [episodes]) as Int32Array,
    ...(header.terminated !== undefined ? { terminated: read('terminated', 'U8', [episodes]) as Uint8Array } : {}),
  };
  const starts = demos.episodeStarts;
  if (starts[0] !== 0 || starts[episodes] !== steps) fail(`demo episode_starts must begin at 0 and end at steps (${steps})`);
  for (let episodeIndex = 0; episodeIndex < episodes; episodeIndex++) {
    if (starts[episodeIndex + 1] < starts[episodeIndex]) fail(`demo episode_starts must be non-decreasing; episode ${episodeIndex} ends before it starts`);
  }
  for (const [name, array] of [['obs', demos.obs], ['actions', demos.actions], ['rewards', demos.rewards]] as const) {
    for (let element = 0; element < array.length; element++) {
      if (!Number.isFinite(array[element])) fail(`demo tensor '${name}' has a non-finite value at element ${element}`);
    }
  }
  const ends = demos.terminated;
  if (ends?.some((flag) => flag > 1)) fail(`demo tensor 'terminated' must hold 0 (truncated) or 1 (terminated) per episode`);
  return { demos, metadata };
}

/** Metadata for collected demos, in the control the task's expert acts in unless `controlMode` names the one a policy acted in. */
export function demoMetadataFor(
  demos: Demonstrations,
  options: { seed: number; noise: number; obsSlices: readonly ObsSlice[]; maxEpisodeSteps: number; controlMode?: string; cameras?: { camera: string; imageSize: number } },
): DemoMetadata {
  const episodes = demos.success.length;
  const successes = demos.success.reduce((sum, flag) => sum + flag, 0);
  return {
    format: DEMO_FORMAT, format_version: DEMO_FORMAT_VERSION, task: demos.task, obs_mode: demos.obsMode,
    obs_dim: demos.obsDim, obs_slices: options.obsSlices, control_mode: options.controlMode ?? getTask(demos.task).expert?.control ?? '', action_dim: demos.actionDim,
    episodes, steps: demos.actions.length / demos.actionDim, seed: options.seed, noise: options.noise,
    success_rate: episodes > 0 ? successes / episodes : 0, max_episode_steps: options.maxEpisodeSteps,
    ...(demos.imageSpec ? { image: { cameras: [...demos.imageSpec.cameras], size: demos.imageSpec.size, channels: demos.imageSpec.channels } } : {}),
    // An image set's cameras are its `image`; a depth-cloud set names the cameras its points came from.
    ...(options.cameras && !demos.imageSpec ? { camera: options.cameras.camera, image_size: options.cameras.imageSize } : {}),
  };
}

/** The first `count` episodes of a demonstration set (all of them when it holds fewer). */
export function firstDemoEpisodes(demos: Demonstrations, count: number): Demonstrations {
  const episodes = Math.min(count, demos.success.length);
  const rows = demos.episodeStarts[episodes];
  return {
    ...demos,
    obs: demos.obs.slice(0, rows * demos.obsDim),
    ...(demos.images && demos.imageSpec ? { images: demos.images.slice(0, rows * imageBytes(demos.imageSpec)) } : {}),
    actions: demos.actions.slice(0, rows * demos.actionDim),
    rewards: demos.rewards.slice(0, rows),
    episodeStarts: demos.episodeStarts.slice(0, episodes + 1),
    success: demos.success.slice(0, episodes),
    seeds: demos.seeds.slice(0, episodes),
    ...(demos.terminated ? { terminated: demos.terminated.slice(0, episodes) } : {}),
  };
}
