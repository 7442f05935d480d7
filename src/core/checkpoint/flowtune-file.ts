import { CheckpointError } from '../errors';
import { DEFAULT_MAX_HEADER_BYTES, type DecodeOptions, type StoredDtype } from './checkpoint-types';
import { readSource, summarizeSource, type CheckpointSource, type CheckpointSummary, type DecodedFlowtune } from './checkpoint-reader';
import { prepareContents, type FlowtuneContents } from './checkpoint-writer';
import type { RawTensorRecord } from './tensor-records';

/**
 * The .flowtune file is safetensors (DESIGN.md §6): an 8-byte little-endian
 * header length, a UTF-8 JSON header (tensor name → {dtype, shape,
 * data_offsets [begin, end)} relative to the first byte after the header,
 * plus `__metadata__`, a string → string map), then the raw tensor bytes.
 */
export const METADATA_KEY = 'flowtune';
export const OPTIMIZER_METADATA_KEY = 'flowtune_optimizer';

function fail(message: string): never {
  throw new CheckpointError(message);
}

/** Writes a .flowtune file. Model tensors use `dtype` (default F32); optimizer slots are always F32. */
export function encodeFlowtune(contents: FlowtuneContents, options: { dtype?: StoredDtype } = {}): Uint8Array {
  const prepared = prepareContents(contents, options.dtype ?? 'F32');
  const metadata: Record<string, string> = { [METADATA_KEY]: prepared.metadataJson };
  if (prepared.optimizerJson !== undefined) metadata[OPTIMIZER_METADATA_KEY] = prepared.optimizerJson;
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const tensor of prepared.tensors) {
    header[tensor.name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + tensor.bytes.byteLength] };
    offset += tensor.bytes.byteLength;
  }
  let headerBytes = new TextEncoder().encode(JSON.stringify(header));
  // Spaces pad the header to a multiple of 8 so the tensor data starts aligned.
  const padded = Math.ceil(headerBytes.byteLength / 8) * 8;
  if (padded !== headerBytes.byteLength) {
    const withPadding = new Uint8Array(padded).fill(0x20);
    withPadding.set(headerBytes);
    headerBytes = withPadding;
  }
  const out = new Uint8Array(8 + headerBytes.byteLength + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.byteLength), true);
  out.set(headerBytes, 8);
  let position = 8 + headerBytes.byteLength;
  for (const tensor of prepared.tensors) {
    out.set(tensor.bytes, position);
    position += tensor.bytes.byteLength;
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseMetadataEntry(metadata: Record<string, string>, key: string): unknown {
  const text = metadata[key];
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail(`checkpoint entry __metadata__.${key} is not valid JSON`);
  }
}

/** Parses the length field and JSON header into a CheckpointSource; no tensor byte is read. */
function parseFlowtune(bytes: Uint8Array, maxHeaderBytes: number): CheckpointSource {
  if (bytes.byteLength < 8) fail(`checkpoint is ${bytes.byteLength} bytes, too short to hold the 8-byte header length of a .flowtune file`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getBigUint64(0, true);
  const available = bytes.byteLength - 8;
  if (headerLength > BigInt(available)) {
    fail(`checkpoint is truncated or not a .flowtune file: its header length field says ${headerLength} bytes but only ${available} follow`);
  }
  const headerByteLength = Number(headerLength);
  if (headerByteLength > maxHeaderBytes) fail(`checkpoint header is ${headerByteLength} bytes, above the cap of ${maxHeaderBytes} bytes`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerByteLength)));
  } catch {
    fail('checkpoint header is not valid UTF-8 JSON, so the file is corrupt or not a .flowtune file');
  }
  if (!isObject(header)) return fail('checkpoint header is not a JSON object, so the file is corrupt or not a .flowtune file');
  const records: RawTensorRecord[] = [];
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      if (!isObject(entry) || !Object.values(entry).every((value) => typeof value === 'string')) {
        fail('checkpoint header entry __metadata__ must map names to strings');
      }
      metadata = entry as Record<string, string>;
      continue;
    }
    const offsets = isObject(entry) ? entry.data_offsets : undefined;
    if (!isObject(entry) || typeof entry.dtype !== 'string' || !Array.isArray(entry.shape) || !Array.isArray(offsets) || offsets.length !== 2) {
      fail(`tensor ${name} has a malformed header entry (it needs dtype, shape and data_offsets [begin, end])`);
    }
    const { dtype, shape } = entry as { dtype: string; shape: number[] };
    const [begin, end] = offsets as [number, number];
    records.push({ name, dtype, shape, begin, end });
  }
  return {
    records,
    data: bytes.subarray(8 + headerByteLength),
    dataStart: 8 + headerByteLength,
    metadata: parseMetadataEntry(metadata, METADATA_KEY),
    metadataLocation: `__metadata__.${METADATA_KEY}`,
    optimizerState: parseMetadataEntry(metadata, OPTIMIZER_METADATA_KEY),
    optimizerLocation: `__metadata__.${OPTIMIZER_METADATA_KEY}`,
  };
}

function checkCap(maxHeaderBytes: number): void {
  if (!(Number.isSafeInteger(maxHeaderBytes) && maxHeaderBytes > 0)) fail(`maxHeaderBytes must be a positive integer, got ${maxHeaderBytes}`);
}

/** Parses a .flowtune file's length field and JSON header (within the cap); no tensor byte is read. */
export function parseFlowtuneFile(bytes: Uint8Array, maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES): CheckpointSource {
  checkCap(maxHeaderBytes);
  return parseFlowtune(bytes, maxHeaderBytes);
}

/**
 * Reads a .flowtune file, validating everything (sizes, header cap, JSON,
 * offsets, overlaps, dtypes, byte lengths, metadata and format_version, task,
 * shapes against the model, finiteness) before returning anything. Every
 * failure is a CheckpointError with one sentence. Never evaluates code.
 */
export function decodeFlowtune(bytes: Uint8Array, options: DecodeOptions): DecodedFlowtune {
  return readSource(parseFlowtuneFile(bytes, options.maxHeaderBytes), options);
}

/** Validates a .flowtune file's structure and metadata and describes its tensors, without decoding them. */
export function inspectFlowtune(bytes: Uint8Array, options: { expectedTask?: string; maxHeaderBytes?: number } = {}): CheckpointSummary {
  return summarizeSource(parseFlowtuneFile(bytes, options.maxHeaderBytes), options);
}
