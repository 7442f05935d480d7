import { CheckpointError } from '../errors';
import { numberToBf16Bits, numberToF16Bits } from './half-float';
import { DTYPE_BYTES, OPTIMIZER_PREFIX, REFERENCE_PREFIX, type OptimizerState, type StoredDtype, type TensorData } from './checkpoint-types';
import { validateFlowtuneMetadata, validateOptimizerState, type FlowtuneMetadata } from './metadata';
import { checkFinite, elementCount, formatShape } from './tensor-records';

/** What a checkpoint holds, as the trainer hands it over. */
export interface FlowtuneContents {
  /** Model tensor name → values, e.g. 'velocity.blocks.0.dense.kernel'. */
  tensors: Map<string, TensorData>;
  metadata: FlowtuneMetadata;
  /** Optimizer state, so a run resumes exactly. */
  optimizer?: OptimizerState;
  /** The BC regularizer's reference policy: model tensor names → values, stored under `reference.`. */
  reference?: Map<string, TensorData>;
}

/** One tensor ready to write: little-endian bytes in its stored dtype. */
export interface EncodedTensor {
  /** Full name, optimizer slots with the `optimizer.` prefix. */
  name: string;
  dtype: StoredDtype;
  shape: number[];
  bytes: Uint8Array;
}

function fail(message: string): never {
  throw new CheckpointError(message);
}

const littleEndianHost = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Little-endian bytes of `values` in `dtype` (F16/BF16 rounded to nearest even). */
export function encodeValues(values: Float32Array, dtype: StoredDtype): Uint8Array {
  const bytes = new Uint8Array(values.length * DTYPE_BYTES[dtype]);
  if (dtype === 'F32' && littleEndianHost) {
    bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    return bytes;
  }
  const view = new DataView(bytes.buffer);
  if (dtype === 'F32') for (let index = 0; index < values.length; index++) view.setFloat32(index * 4, values[index], true);
  else if (dtype === 'F16') for (let index = 0; index < values.length; index++) view.setUint16(index * 2, numberToF16Bits(values[index]), true);
  else for (let index = 0; index < values.length; index++) view.setUint16(index * 2, numberToBf16Bits(values[index]), true);
  return bytes;
}

function checkTensor(name: string, tensor: TensorData): void {
  if (!Array.isArray(tensor.shape) || !tensor.shape.every((size) => Number.isSafeInteger(size) && size >= 0)) {
    fail(`tensor ${name} has shape ${JSON.stringify(tensor.shape)}, which is not a list of non-negative integers`);
  }
  if (!(tensor.data instanceof Float32Array)) fail(`tensor ${name} must hold a Float32Array`);
  if (tensor.data.length !== elementCount(tensor.shape)) {
    fail(`tensor ${name} has ${tensor.data.length} values, but shape ${formatShape(tensor.shape)} needs ${elementCount(tensor.shape)}`);
  }
  checkFinite(name, tensor.data);
}

/**
 * Checks the contents the way the reader will (so a file that cannot be read
 * back is never written) and encodes every tensor: model tensors first, then
 * the reference policy's and optimizer slots under their prefixes. Also returns
 * the metadata entries as JSON.
 */
export function prepareContents(contents: FlowtuneContents, dtype: StoredDtype = 'F32'): { tensors: EncodedTensor[]; metadataJson: string; optimizerJson?: string } {
  const metadataJson = JSON.stringify(contents.metadata);
  validateFlowtuneMetadata(JSON.parse(metadataJson));
  const tensors: EncodedTensor[] = [];
  for (const [name, tensor] of contents.tensors) {
    if (name === '' || name === '__metadata__') fail(`tensor name '${name}' is reserved or empty`);
    if (name.startsWith(OPTIMIZER_PREFIX)) fail(`model tensor ${name} may not start with '${OPTIMIZER_PREFIX}', which marks optimizer state`);
    if (name.startsWith(REFERENCE_PREFIX)) fail(`model tensor ${name} may not start with '${REFERENCE_PREFIX}', which marks the BC reference policy`);
    checkTensor(name, tensor);
    tensors.push({ name, dtype, shape: [...tensor.shape], bytes: encodeValues(tensor.data, dtype) });
  }
  for (const [modelName, tensor] of contents.reference ?? []) {
    const name = REFERENCE_PREFIX + modelName;
    checkTensor(name, tensor);
    // The reference stays float32 so a resumed run computes the same regularizer bit for bit.
    tensors.push({ name, dtype: 'F32', shape: [...tensor.shape], bytes: encodeValues(tensor.data, 'F32') });
  }
  if (contents.optimizer === undefined) return { tensors, metadataJson };
  const optimizerJson = JSON.stringify(contents.optimizer.state);
  validateOptimizerState(JSON.parse(optimizerJson));
  for (const [slotName, tensor] of contents.optimizer.tensors) {
    if (slotName === '') fail('optimizer tensor names may not be empty');
    const name = OPTIMIZER_PREFIX + slotName;
    checkTensor(name, tensor);
    // Optimizer moments stay float32 so a resumed run continues bit for bit.
    tensors.push({ name, dtype: 'F32', shape: [...tensor.shape], bytes: encodeValues(tensor.data, 'F32') });
  }
  return { tensors, metadataJson, optimizerJson };
}
