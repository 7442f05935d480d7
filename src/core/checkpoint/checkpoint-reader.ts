import { CheckpointError } from '../errors';
import { OPTIMIZER_PREFIX, REFERENCE_PREFIX, type DecodeOptions, type JsonObject, type OptimizerState, type StoredDtype, type TensorData } from './checkpoint-types';
import { checkTask, validateFlowtuneMetadata, validateOptimizerState, type FlowtuneMetadata } from './metadata';
import { checkExpectedShapes, checkLayout, decodeRecord, type CheckedTensorRecord, type RawTensorRecord } from './tensor-records';

/**
 * A checkpoint reduced to what both formats share: tensor records over one
 * data section plus the parsed metadata entries. The safetensors and tfjs
 * readers build one of these and hand it to the same validation below.
 */
export interface CheckpointSource {
  /** Model and optimizer tensors (optimizer ones carry the `optimizer.` prefix). */
  records: RawTensorRecord[];
  /** The raw tensor bytes the records index into. */
  data: Uint8Array;
  /** Bytes of the file before `data` (a .flowtune's length and header); 0 or absent for a separate weights file. */
  dataStart?: number;
  /** Parsed Flowtune metadata, or undefined when the file has none. */
  metadata: unknown;
  /** Where the metadata lives in this format, for the message when it is missing. */
  metadataLocation: string;
  /** Parsed optimizer state, or undefined when the file has none. */
  optimizerState: unknown;
  /** Where the optimizer state lives in this format, for messages. */
  optimizerLocation: string;
}

/** A fully validated checkpoint: model tensors, metadata and (if saved) optimizer state. */
export interface DecodedFlowtune {
  tensors: Map<string, TensorData>;
  metadata: FlowtuneMetadata;
  optimizer?: OptimizerState;
  /** The BC regularizer's reference policy (names without the prefix), when the file holds one. */
  reference?: Map<string, TensorData>;
}

/** A checkpoint's description without its tensor values, for building a model before loading it. */
export interface CheckpointSummary {
  metadata: FlowtuneMetadata;
  /** Model tensor name → dtype and shape as stored. */
  tensors: Map<string, { dtype: StoredDtype; shape: number[] }>;
  /** Optimizer slot name (without prefix) → dtype and shape. */
  optimizerTensors: Map<string, { dtype: StoredDtype; shape: number[] }>;
  /** Optimizer counters and settings, when saved. */
  optimizerState?: JsonObject;
  /** The BC reference policy's tensors (without prefix); empty when the file holds none. */
  referenceTensors: Map<string, { dtype: StoredDtype; shape: number[] }>;
}

/** A source whose layout, metadata, task and optimizer entry passed their checks; no tensor value read yet. */
export interface CheckedSource {
  metadata: FlowtuneMetadata;
  modelRecords: CheckedTensorRecord[];
  /** With the prefix already removed from the names. */
  optimizerRecords: CheckedTensorRecord[];
  optimizerState?: JsonObject;
  /** With the prefix already removed from the names. */
  referenceRecords: CheckedTensorRecord[];
}

/** Layout, metadata, task and optimizer-entry checks; reads no tensor values. */
export function checkSource(source: CheckpointSource, expectedTask: string | undefined): CheckedSource {
  const records = checkLayout(source.records, source.data.byteLength, source.dataStart);
  if (source.metadata === undefined) {
    throw new CheckpointError(`checkpoint has no ${source.metadataLocation} entry, so it is not a Flowtune checkpoint`);
  }
  const metadata = validateFlowtuneMetadata(source.metadata);
  checkTask(metadata, expectedTask);
  const prefixed = (prefix: string) => records
    .filter((record) => record.name.startsWith(prefix))
    .map((record) => ({ ...record, name: record.name.slice(prefix.length) }));
  const modelRecords = records.filter((record) => !record.name.startsWith(OPTIMIZER_PREFIX) && !record.name.startsWith(REFERENCE_PREFIX));
  const optimizerRecords = prefixed(OPTIMIZER_PREFIX);
  const referenceRecords = prefixed(REFERENCE_PREFIX);
  if (source.optimizerState === undefined) {
    if (optimizerRecords.length > 0) {
      throw new CheckpointError(`checkpoint has optimizer tensors but no ${source.optimizerLocation} entry`);
    }
    return { metadata, modelRecords, optimizerRecords, referenceRecords };
  }
  return { metadata, modelRecords, optimizerRecords, referenceRecords, optimizerState: validateOptimizerState(source.optimizerState) };
}

const describe = (records: readonly CheckedTensorRecord[]) => new Map(records.map((record) => [record.name, { dtype: record.dtype, shape: [...record.shape] }]));

/** Validates everything but the tensor values and the model's shapes, and describes the checkpoint. */
export function summarizeSource(source: CheckpointSource, options: { expectedTask?: string } = {}): CheckpointSummary {
  const checked = checkSource(source, options.expectedTask);
  const summary: CheckpointSummary = {
    metadata: checked.metadata, tensors: describe(checked.modelRecords), optimizerTensors: describe(checked.optimizerRecords),
    referenceTensors: describe(checked.referenceRecords),
  };
  if (checked.optimizerState !== undefined) summary.optimizerState = checked.optimizerState;
  return summary;
}

/**
 * Full validation in order: layout, metadata and task, shapes against the
 * model, then each tensor decoded to float32 and checked finite. Nothing is
 * returned unless every check passes, so a live model is never half-loaded.
 */
export function readSource(source: CheckpointSource, options: DecodeOptions): DecodedFlowtune {
  return readChecked(checkSource(source, options.expectedTask), source.data, options);
}

/** readSource for a source already checked (the header was parsed and checked once). */
export function readChecked(checked: CheckedSource, data: Uint8Array, options: Omit<DecodeOptions, 'expectedTask' | 'maxHeaderBytes'>): DecodedFlowtune {
  if (options.expectedShapes !== null) {
    checkExpectedShapes(checked.modelRecords, options.expectedShapes, 'tensor');
    // A reference policy, when stored, is a whole copy of the model.
    if (checked.referenceRecords.length > 0) checkExpectedShapes(checked.referenceRecords, options.expectedShapes, 'reference tensor');
  }
  if (options.expectedOptimizerShapes !== undefined && checked.optimizerState !== undefined) {
    checkExpectedShapes(checked.optimizerRecords, options.expectedOptimizerShapes, 'optimizer tensor');
  }
  const tensors = new Map<string, TensorData>();
  for (const record of checked.modelRecords) tensors.set(record.name, decodeRecord(record, data));
  const decoded: DecodedFlowtune = { tensors, metadata: checked.metadata };
  if (checked.optimizerState !== undefined) {
    const optimizerTensors = new Map<string, TensorData>();
    for (const record of checked.optimizerRecords) {
      optimizerTensors.set(record.name, decodeRecord({ ...record, name: OPTIMIZER_PREFIX + record.name }, data));
    }
    decoded.optimizer = { state: checked.optimizerState, tensors: optimizerTensors };
  }
  if (checked.referenceRecords.length > 0) {
    decoded.reference = new Map(checked.referenceRecords.map((record) => [record.name, decodeRecord({ ...record, name: REFERENCE_PREFIX + record.name }, data)]));
  }
  return decoded;
}
