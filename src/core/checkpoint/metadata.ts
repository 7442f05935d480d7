import { CheckpointError } from '../errors';
import type { JsonObject, JsonValue } from './checkpoint-types';

/** The metadata format this build writes and reads. */
export const FLOWTUNE_FORMAT_VERSION = 1;

/** bc: stage-1 flow BC; offline: stage-2 advantage-weighted BC; ppo: stage-3 online fine-tuning (DESIGN.md §12). */
export type CheckpointStage = 'bc' | 'offline' | 'ppo';
const STAGES: readonly CheckpointStage[] = ['bc', 'offline', 'ppo'];

/** Observation and action spec (shape_meta), each entry a shape without the batch axis. */
export interface ShapeMeta {
  /** Named observation inputs, e.g. { state: { shape: [39] }, point_cloud: { shape: [512, 3] } }. */
  obs: Record<string, { shape: number[] }>;
  /** The env's action, e.g. { shape: [4] }. */
  action: { shape: number[] };
}

/** Counters that let a run resume where it stopped. */
export interface TrainingProgress {
  /** Optimizer (gradient) steps taken. */
  step: number;
  /** Training iterations done (PPO iterations, or BC epochs). */
  iteration: number;
  /** Env steps consumed so far (0 for BC). */
  env_steps: number;
}

/** `__metadata__.flowtune` of a .flowtune file (DESIGN.md §6). */
export interface FlowtuneMetadata {
  format_version: number;
  /** Task name from the registry. */
  task: string;
  /** Hash of the task's scene, assets and module when the checkpoint was written (DESIGN.md §13); absent in older files. */
  task_hash?: string;
  shape_meta: ShapeMeta;
  /** Policy architecture config, as the policy module defines it. */
  architecture: JsonObject;
  /** Normalizer stats (min/max per input), as the policy module defines them. */
  normalizer: JsonObject;
  /** Exploration-noise config. */
  noise: JsonObject;
  stage: CheckpointStage;
  training: TrainingProgress;
  /** Summary of the last evaluation, e.g. { success_rate: 0.8, mean_return: 12.5 }; {} if none. */
  eval: Record<string, number>;
  /** Full run config, for resuming with the same settings. */
  config?: JsonObject;
  /** What an exact resume needs beyond weights and optimizer moments (env and RNG states, history); the run layer reads it. */
  resume?: JsonObject;
}

function fail(message: string): never {
  throw new CheckpointError(message);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkShape(field: string, value: unknown): void {
  if (!Array.isArray(value) || !value.every((size) => Number.isSafeInteger(size) && size >= 0)) {
    fail(`checkpoint metadata field '${field}' must be a shape (an array of non-negative integers)`);
  }
}

function checkCount(field: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0) fail(`checkpoint metadata field '${field}' must be a non-negative integer, got ${JSON.stringify(value)}`);
}

/**
 * Checks a parsed metadata object field by field and returns it typed;
 * each failure is a CheckpointError naming the field. Unknown extra fields are kept.
 */
export function validateFlowtuneMetadata(value: unknown): FlowtuneMetadata {
  if (!isObject(value)) return fail('checkpoint metadata must be a JSON object');
  if (value.format_version !== FLOWTUNE_FORMAT_VERSION) {
    fail(`checkpoint has format_version ${JSON.stringify(value.format_version)}, but this build reads format_version ${FLOWTUNE_FORMAT_VERSION}`);
  }
  if (typeof value.task !== 'string' || value.task === '') fail("checkpoint metadata field 'task' must be a non-empty string");
  if (value.task_hash !== undefined && (typeof value.task_hash !== 'string' || !/^[0-9a-f]{16}$/.test(value.task_hash))) {
    fail("checkpoint metadata field 'task_hash' must be 16 hex digits when present");
  }
  const shapeMeta = value.shape_meta;
  if (!isObject(shapeMeta) || !isObject(shapeMeta.obs) || !isObject(shapeMeta.action)) {
    fail("checkpoint metadata field 'shape_meta' must hold 'obs' (a map of named shapes) and 'action' (a shape)");
  }
  const { obs, action } = shapeMeta as { obs: Record<string, unknown>; action: Record<string, unknown> };
  for (const [name, entry] of Object.entries(obs)) checkShape(`shape_meta.obs.${name}.shape`, isObject(entry) ? entry.shape : undefined);
  checkShape('shape_meta.action.shape', action.shape);
  for (const field of ['architecture', 'normalizer', 'noise'] as const) {
    if (!isObject(value[field])) fail(`checkpoint metadata field '${field}' must be a JSON object`);
  }
  if (!STAGES.includes(value.stage as CheckpointStage)) {
    fail(`checkpoint metadata field 'stage' is ${JSON.stringify(value.stage)}; allowed values are ${STAGES.join(', ')}`);
  }
  const training = value.training;
  if (!isObject(training)) return fail("checkpoint metadata field 'training' must hold step, iteration and env_steps");
  for (const field of ['step', 'iteration', 'env_steps'] as const) checkCount(`training.${field}`, training[field]);
  const evalSummary = value.eval;
  if (!isObject(evalSummary) || !Object.values(evalSummary).every((metric) => typeof metric === 'number')) {
    fail("checkpoint metadata field 'eval' must map metric names to numbers");
  }
  if (value.config !== undefined && !isObject(value.config)) fail("checkpoint metadata field 'config' must be a JSON object when present");
  if (value.resume !== undefined && !isObject(value.resume)) fail("checkpoint metadata field 'resume' must be a JSON object when present");
  return value as unknown as FlowtuneMetadata;
}

/** Throws a CheckpointError when the checkpoint was trained on another task. */
export function checkTask(metadata: FlowtuneMetadata, expectedTask: string | undefined): void {
  if (expectedTask !== undefined && metadata.task !== expectedTask) {
    fail(`checkpoint is for task '${metadata.task}' but the run is '${expectedTask}'`);
  }
}

/**
 * Throws a CheckpointError when the checkpoint was written on another version of its task (the
 * scene or module changed since), unless the caller accepts that or the task names that version
 * among its former hashes (a change no policy sees). Files without a hash predate it.
 */
export function checkTaskVersion(metadata: FlowtuneMetadata, task: { hash: string; formerHashes?: readonly string[] }, acceptOtherVersion: boolean): void {
  const taskHash = task.hash;
  if (metadata.task_hash === undefined || metadata.task_hash === taskHash || acceptOtherVersion) return;
  if (task.formerHashes?.includes(metadata.task_hash)) return;
  fail(`checkpoint was made on another version of task '${metadata.task}' (task hash ${metadata.task_hash}, the loaded task is ${taskHash}): its scene or module changed; set accept_task_version=true to use it anyway`);
}

/** Checks the optimizer state entry (a JSON object) and returns it typed. */
export function validateOptimizerState(value: unknown): JsonObject {
  if (!isObject(value)) return fail('checkpoint optimizer state must be a JSON object');
  return value as { [key: string]: JsonValue };
}
