/** JSON values as stored in checkpoint metadata (no functions, no undefined). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** One tensor as the rest of the project hands it over: row-major float32. */
export interface TensorData {
  /** Dimensions, outermost first; [] is a scalar. */
  shape: number[];
  /** product(shape) values, row-major. */
  data: Float32Array;
}

/** Element types a checkpoint may store (DESIGN.md §6); all are read as float32. */
export type StoredDtype = 'F32' | 'F16' | 'BF16';
export const STORED_DTYPES: readonly StoredDtype[] = ['F32', 'F16', 'BF16'];
export const DTYPE_BYTES: Readonly<Record<StoredDtype, number>> = { F32: 4, F16: 2, BF16: 2 };

/**
 * Optimizer state kept so a run resumes exactly (DESIGN.md §6). Stored as
 * tensors under the `optimizer.` prefix plus a JSON entry for the rest.
 */
export interface OptimizerState {
  /** Per-optimizer settings and counters, e.g. { actor: { kind: 'adam', step: 120, beta1: 0.9 } }. */
  state: JsonObject;
  /** Slot tensors without the prefix, e.g. 'actor.velocity.blocks.0.dense.kernel.m' for an Adam first moment. */
  tensors: Map<string, TensorData>;
}

/** Adam's step count and per-parameter moments, keyed by the policy's dotted parameter names. */
export interface AdamMoments {
  step: number;
  slots: Map<string, { m: Float32Array; v: Float32Array }>;
}

/** Counters and both optimizers' moments: what a checkpoint written during a run adds to the weights. */
export interface RunProgress {
  iteration: number;
  envSteps: number;
  actor: AdamMoments;
  critic: AdamMoments;
}

/** Prefix that separates optimizer slots from model tensors in one file. */
export const OPTIMIZER_PREFIX = 'optimizer.';

/**
 * Prefix of the BC regularizer's frozen reference policy (ppo.bc_coef, DESIGN.md §12): a full
 * copy of the model tensors, under the same names after the prefix, kept so a resumed run
 * regularizes toward the policy the run started from.
 */
export const REFERENCE_PREFIX = 'reference.';

/** Default cap on the JSON header (or model.json) size. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024 * 1024;

/** What the reader checks against, besides the file's own consistency. */
export interface DecodeOptions {
  /**
   * Model tensor name → shape the live model needs. Missing and unexpected
   * tensors are errors. null skips this check (only for inspection tools:
   * a model built from the checkpoint's own architecture).
   */
  expectedShapes: ReadonlyMap<string, readonly number[]> | null;
  /** Optimizer slot name (without prefix) → shape, checked like expectedShapes when given. */
  expectedOptimizerShapes?: ReadonlyMap<string, readonly number[]>;
  /** Task of the run; a checkpoint for another task is rejected. */
  expectedTask?: string;
  /** Cap on the header (or model.json) in bytes; default 16 MiB. */
  maxHeaderBytes?: number;
}
