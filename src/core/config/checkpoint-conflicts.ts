/**
 * Overrides that contradict a checkpoint. A checkpoint fixes its parameter shapes and
 * what its policy sees; an override that changes one of those cannot be honoured, so it
 * is an error rather than silently training the checkpoint's own architecture.
 * Sampling settings that leave shapes alone (policy.denoise_steps, policy.n_action_steps)
 * are not conflicts: the checkpoint's values are only their defaults.
 */
import { hasPointCloud, isImageObsMode, readsCameras } from '../envs/task-types';
import { ConfigError } from '../errors';
import { getField } from './access';
import { fieldValuesEqual } from './diff';
import { formatFieldValue, parseFieldValue } from './field-values';
import { parseOverride } from './overrides';
import type { ConfigKey, RunConfig } from './run-config';
import { asRunOverrides, type RunOverrides } from './run-overrides';

/** Keys a checkpoint decides, in the order conflicts are reported. */
export const CHECKPOINT_SHAPE_KEYS: readonly ConfigKey[] = [
  'policy.kind', 'policy.gaussian_hidden', 'policy.denoise_steps', 'policy.velocity_net', 'policy.hidden', 'policy.encoder_hidden', 'policy.value_hidden', 'policy.noise_head_hidden',
  'policy.value_on', 'policy.horizon', 'policy.n_obs_steps', 'policy.ditx_dim', 'policy.ditx_depth', 'policy.ditx_heads',
  'policy.unet_dims', 'policy.unet_kernel', 'policy.unet_groups',
  'env.obs_type', 'env.control_mode', 'env.num_points', 'env.camera', 'env.image_size', 'policy.cnn_channels', 'policy.image_features',
];

/** Keys that shape only an image policy's encoder. */
const IMAGE_ENCODER_KEYS: ReadonlySet<ConfigKey> = new Set<ConfigKey>(['policy.cnn_channels', 'policy.image_features']);

const FLOW_ONLY_KEYS: ReadonlySet<ConfigKey> = new Set<ConfigKey>([
  'policy.velocity_net', 'policy.hidden', 'policy.encoder_hidden', 'policy.value_hidden', 'policy.noise_head_hidden', 'policy.value_on',
  'policy.ditx_dim', 'policy.ditx_depth', 'policy.ditx_heads', 'policy.unet_dims', 'policy.unet_kernel', 'policy.unet_groups', 'env.num_points', 'env.camera', 'env.image_size',
  'policy.cnn_channels', 'policy.image_features',
]);

/**
 * Whether `key` shapes a checkpoint with this config: DiT-X sizes only a DiT-X net, UNet sizes only a UNet1D, num_points
 * only point clouds, the cameras only what reads them (depth clouds and images), the CNN's sizes only images.
 */
function shapesCheckpoint(key: ConfigKey, checkpoint: RunConfig): boolean {
  if (key === 'policy.gaussian_hidden') return checkpoint.policy.kind === 'gaussian';
  // A diffusion net is trained for its T steps (its cosine schedule); a flow policy samples with any K.
  if (key === 'policy.denoise_steps') return checkpoint.policy.kind === 'diffusion';
  // A Gaussian policy has no velocity net, encoder, value or noise heads of the flow kind.
  if (checkpoint.policy.kind === 'gaussian' && FLOW_ONLY_KEYS.has(key)) return false;
  if (key.startsWith('policy.ditx_')) return checkpoint.policy.velocity_net === 'ditx';
  if (key.startsWith('policy.unet_')) return checkpoint.policy.velocity_net === 'unet1d';
  if (key === 'env.num_points') return hasPointCloud(checkpoint.env.obs_type);
  if (key === 'env.camera' || key === 'env.image_size') return readsCameras(checkpoint.env.obs_type);
  if (IMAGE_ENCODER_KEYS.has(key)) return isImageObsMode(checkpoint.env.obs_type);
  return true;
}

/** The keys a checkpoint of this config fixes: its shape keys that apply to it. */
export function checkpointFixedKeys(checkpoint: RunConfig): ConfigKey[] {
  return CHECKPOINT_SHAPE_KEYS.filter((key) => shapesCheckpoint(key, checkpoint));
}

export interface CheckpointConflict {
  readonly key: ConfigKey;
  /** The override as given, e.g. 'policy.hidden=64,64'. */
  readonly override: string;
  /** The checkpoint's value in override form, e.g. 'policy.hidden=256,256,256'. */
  readonly checkpoint: string;
  /** The preset the override came from, when it did. */
  readonly preset?: string;
}

/**
 * Every shape key whose final overridden value differs from `checkpoint`, the config the
 * checkpoint implies. Later overrides win, as when they are applied, so a user override
 * equal to the checkpoint's value clears a preset's different one.
 */
export function checkpointConflicts(checkpoint: RunConfig, overrides: readonly string[] | RunOverrides): CheckpointConflict[] {
  const run = asRunOverrides(overrides);
  const last = new Map<ConfigKey, { text: string; index: number }>();
  run.overrides.forEach((override, index) => {
    const { key, text } = parseOverride(override);
    last.set(key, { text, index });
  });
  const conflicts: CheckpointConflict[] = [];
  for (const key of CHECKPOINT_SHAPE_KEYS) {
    const given = last.get(key);
    if (given === undefined || !shapesCheckpoint(key, checkpoint)) continue;
    const wanted = parseFieldValue(key, given.text);
    const has = getField(checkpoint, key);
    if (fieldValuesEqual(wanted, has)) continue;
    const fromPreset = given.index < run.presetOverrides.length ? run.preset : undefined;
    conflicts.push({ key, override: `${key}=${given.text.trim()}`, checkpoint: `${key}=${formatFieldValue(has)}`, preset: fromPreset });
  }
  return conflicts;
}

/** One sentence for a conflict, saying how to resolve it. */
export function describeCheckpointConflict(conflict: CheckpointConflict): string {
  if (conflict.preset !== undefined) {
    return `${conflict.override} (from preset ${conflict.preset}) contradicts the checkpoint, which has ${conflict.checkpoint}; `
      + `add ${conflict.checkpoint}, use another preset, or pretrain a new checkpoint`;
  }
  return `${conflict.override} contradicts the checkpoint, which has ${conflict.checkpoint}; drop the override or pretrain a new checkpoint`;
}

/** Throws ConfigError for the first conflict (in CHECKPOINT_SHAPE_KEYS order); returns quietly when there is none. */
export function assertNoCheckpointConflicts(checkpoint: RunConfig, overrides: readonly string[] | RunOverrides): void {
  const [first] = checkpointConflicts(checkpoint, overrides);
  if (first) throw new ConfigError(first.key, describeCheckpointConflict(first));
}
