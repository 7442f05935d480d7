/**
 * The metadata of a `.demos` file and its check: every field a reader uses is checked for type
 * and range before any tensor is sized from it, each failure one sentence naming the field.
 */
import { ConfigError } from '../errors';
import { PLAIN_NAME, PLAIN_NAME_LIST } from '../config/fields';
import { isImageObsMode, OBS_MODES, type ObsMode, type ObsSlice, type TaskName } from './task-types';
import { MAX_IMAGE_SIZE, MIN_IMAGE_SIZE } from './camera/pinhole';

const MAX_DEMO_CAMERAS = 16;

/** The camera images of each step of an image demos file (rgb, rgbd): its `images` tensor is [steps, cameras, size, size, channels]. */
export interface DemoImageMetadata {
  cameras: string[];
  size: number;
  channels: 3 | 4;
}

export const DEMO_FORMAT = 'flowtune-demos';
export const DEMO_FORMAT_VERSION = 1;

export interface DemoMetadata {
  format: typeof DEMO_FORMAT;
  format_version: number;
  task: TaskName;
  obs_mode: ObsMode;
  obs_dim: number;
  obs_slices: readonly ObsSlice[];
  control_mode: string;
  action_dim: number;
  episodes: number;
  steps: number;
  seed: number;
  noise: number;
  success_rate: number;
  max_episode_steps: number;
  /** Image observations (rgb, rgbd) only: the cameras, size and channels of every step's images. */
  image?: DemoImageMetadata;
  /** depth_pointcloud demos: the cameras their points came from (env.camera) and their image side. */
  camera?: string;
  image_size?: number;
}

function fail(message: string): never {
  throw new ConfigError('demos', message);
}

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

function integerField(metadata: Record<string, unknown>, field: keyof DemoMetadata, min: number): number {
  const value = metadata[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    fail(`demo metadata field '${field}' must be an integer ≥ ${min}, got ${shown(value)}`);
  }
  return value;
}

function numberField(metadata: Record<string, unknown>, field: keyof DemoMetadata): number {
  const value = metadata[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`demo metadata field '${field}' must be a finite number, got ${shown(value)}`);
  return value;
}

function checkSlices(value: unknown, obsDim: number): readonly ObsSlice[] {
  const allowed = `a list of observation slices {name, start, dim} within obs_dim (${obsDim})`;
  if (!Array.isArray(value)) fail(`demo metadata field 'obs_slices' must be ${allowed}, got ${shown(value)}`);
  value.forEach((slice: unknown, sliceIndex) => {
    const { name, start, dim } = (typeof slice === 'object' && slice !== null ? slice : {}) as Record<string, unknown>;
    const fits = typeof name === 'string' && Number.isSafeInteger(start) && Number.isSafeInteger(dim)
      && (start as number) >= 0 && (dim as number) >= 1 && (start as number) + (dim as number) <= obsDim;
    if (!fits) fail(`demo metadata field 'obs_slices' must be ${allowed}, but entry ${sliceIndex} is ${shown(slice)}`);
  });
  return value as ObsSlice[];
}

/** `parsed` as DemoMetadata when every field is sound; throws ConfigError (field 'demos') naming the first bad field. */
export function checkDemoMetadata(parsed: unknown): DemoMetadata {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail(`demo metadata must be a JSON object, got ${shown(parsed)}`);
  const metadata = parsed as Record<string, unknown>;
  if (metadata.format !== DEMO_FORMAT) fail(`demo metadata format is '${String(metadata.format)}'; expected '${DEMO_FORMAT}'`);
  if (metadata.format_version !== DEMO_FORMAT_VERSION) fail(`demo format_version ${shown(metadata.format_version)} is unsupported; supported: ${DEMO_FORMAT_VERSION}`);
  if (typeof metadata.task !== 'string' || !PLAIN_NAME.test(metadata.task)) fail(`demo task ${shown(metadata.task)} is not a task name (letters, digits, '_', '-', '.')`);
  if (!(OBS_MODES as readonly unknown[]).includes(metadata.obs_mode)) fail(`demo obs_mode '${String(metadata.obs_mode)}' is unknown; allowed values: ${OBS_MODES.join(', ')}`);
  if (typeof metadata.control_mode !== 'string') fail(`demo metadata field 'control_mode' must be a string, got ${shown(metadata.control_mode)}`);
  const obsDim = integerField(metadata, 'obs_dim', 1);
  integerField(metadata, 'action_dim', 1);
  integerField(metadata, 'episodes', 0);
  integerField(metadata, 'steps', 0);
  integerField(metadata, 'max_episode_steps', 1);
  for (const field of ['seed', 'noise', 'success_rate'] as const) numberField(metadata, field);
  checkSlices(metadata.obs_slices, obsDim);
  if (isImageObsMode(metadata.obs_mode as string)) checkImage(metadata.image, metadata.obs_mode as ObsMode);
  else if (metadata.image !== undefined) fail(`demo metadata field 'image' describes camera images, but obs_mode '${String(metadata.obs_mode)}' holds none`);
  if (metadata.camera !== undefined && (typeof metadata.camera !== 'string' || !PLAIN_NAME_LIST.test(metadata.camera))) {
    fail(`demo metadata field 'camera' must be camera names separated by commas, got ${shown(metadata.camera)}`);
  }
  if (metadata.image_size !== undefined) integerField(metadata, 'image_size', 1);
  return metadata as unknown as DemoMetadata;
}

/** The image metadata of an rgb or rgbd demos file: camera names, a size within bounds, the mode's channels. */
function checkImage(value: unknown, mode: ObsMode): void {
  const channels = mode === 'rgbd' ? 4 : 3;
  const allowed = `{cameras: 1–${MAX_DEMO_CAMERAS} camera names, size: an integer in [${MIN_IMAGE_SIZE}, ${MAX_IMAGE_SIZE}], channels: ${channels}}`;
  if (typeof value !== 'object' || value === null) fail(`demo metadata field 'image' must be ${allowed} for obs_mode '${mode}', got ${shown(value)}`);
  const { cameras, size } = value as Record<string, unknown>;
  const namesOk = Array.isArray(cameras) && cameras.length >= 1 && cameras.length <= MAX_DEMO_CAMERAS && cameras.every((name) => typeof name === 'string' && PLAIN_NAME.test(name));
  const sizeOk = Number.isSafeInteger(size) && (size as number) >= MIN_IMAGE_SIZE && (size as number) <= MAX_IMAGE_SIZE;
  if (!namesOk || !sizeOk || (value as Record<string, unknown>).channels !== channels) fail(`demo metadata field 'image' must be ${allowed} for obs_mode '${mode}', got ${shown(value)}`);
}
