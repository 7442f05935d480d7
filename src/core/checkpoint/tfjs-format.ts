import { CheckpointError } from '../errors';
import { DEFAULT_MAX_HEADER_BYTES, type DecodeOptions, type JsonObject, type StoredDtype } from './checkpoint-types';
import { readSource, type CheckpointSource, type DecodedFlowtune } from './checkpoint-reader';
import { prepareContents, type FlowtuneContents } from './checkpoint-writer';
import type { RawTensorRecord } from './tensor-records';

/**
 * tfjs weights format (DESIGN.md §6 "other formats"): a model.json with a
 * weightsManifest (groups of file paths and {name, shape, dtype} entries,
 * laid out back to back across the group's files) and the Flowtune metadata
 * under userDefinedMetadata, plus the .bin weight files.
 */
export const TFJS_FORMAT = 'flowtune-weights';
export const TFJS_GENERATED_BY = 'Flowtune Studio';
export const DEFAULT_WEIGHTS_FILE = 'weights.bin';

interface ManifestWeight {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype?: string };
}

interface ManifestGroup {
  paths: string[];
  weights: ManifestWeight[];
}

function fail(message: string): never {
  throw new CheckpointError(message);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Exports float32 weights (model, then optimizer slots) as a model.json string and one .bin file. */
export function exportTfjs(contents: FlowtuneContents, options: { weightsFileName?: string } = {}): { modelJson: string; weightsBin: Uint8Array } {
  const prepared = prepareContents(contents, 'F32');
  const weightsFileName = options.weightsFileName ?? DEFAULT_WEIGHTS_FILE;
  const userDefinedMetadata: JsonObject = { flowtune: JSON.parse(prepared.metadataJson) as JsonObject };
  if (prepared.optimizerJson !== undefined) userDefinedMetadata.flowtune_optimizer = JSON.parse(prepared.optimizerJson) as JsonObject;
  const modelJson = JSON.stringify({
    format: TFJS_FORMAT,
    generatedBy: TFJS_GENERATED_BY,
    convertedBy: null,
    weightsManifest: [{ paths: [weightsFileName], weights: prepared.tensors.map((tensor) => ({ name: tensor.name, shape: tensor.shape, dtype: 'float32' })) }],
    userDefinedMetadata,
  });
  const weightsBin = new Uint8Array(prepared.tensors.reduce((total, tensor) => total + tensor.bytes.byteLength, 0));
  let offset = 0;
  for (const tensor of prepared.tensors) {
    weightsBin.set(tensor.bytes, offset);
    offset += tensor.bytes.byteLength;
  }
  return { modelJson, weightsBin };
}

function parseManifest(value: unknown): ManifestGroup[] {
  const malformed = 'model.json weightsManifest is malformed (it needs groups of paths and weights with name, shape and dtype)';
  if (!Array.isArray(value)) return fail(malformed);
  for (const group of value) {
    if (!isObject(group) || !Array.isArray(group.paths) || !group.paths.every((path) => typeof path === 'string') || !Array.isArray(group.weights)) fail(malformed);
    for (const weight of (group as { weights: unknown[] }).weights) {
      if (!isObject(weight) || typeof weight.name !== 'string' || !Array.isArray(weight.shape) || typeof weight.dtype !== 'string') fail(malformed);
      if (weight.quantization !== undefined && !isObject(weight.quantization)) fail(malformed);
    }
  }
  return value as ManifestGroup[];
}

/** float32 as is, float32 quantized to float16 as F16; the manifest's other dtypes are rejected. */
function storedDtype(weight: ManifestWeight): StoredDtype {
  if (weight.dtype === 'float32' && weight.quantization === undefined) return 'F32';
  if (weight.dtype === 'float32' && weight.quantization?.dtype === 'float16') return 'F16';
  const described = weight.quantization === undefined ? weight.dtype : `${weight.dtype} quantized to ${weight.quantization.dtype}`;
  return fail(`tensor ${weight.name} has tfjs dtype '${described}'; allowed are float32 and float32 quantized to float16`);
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Concatenates the weight files in manifest order; one Uint8Array is accepted when the manifest names one file. */
function gatherWeights(groups: ManifestGroup[], weights: Uint8Array | ReadonlyMap<string, Uint8Array>): Uint8Array {
  const paths = groups.flatMap((group) => group.paths);
  const parts: Uint8Array[] = [];
  if (weights instanceof Uint8Array) {
    if (paths.length !== 1) fail(`model.json names ${paths.length} weight files (${paths.join(', ')}); pass them all by name`);
    parts.push(weights);
  } else {
    for (const path of paths) {
      const part = weights.get(path) ?? weights.get(baseName(path));
      if (part === undefined) fail(`model.json names weight file '${path}' but it was not provided`);
      else parts.push(part);
    }
  }
  const data = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    data.set(part, offset);
    offset += part.byteLength;
  }
  return data;
}

/** Parses a tfjs model.json (within the header cap) and lays its weight file(s) out as one data section. */
export function parseTfjsFiles(modelJson: string, weights: Uint8Array | ReadonlyMap<string, Uint8Array>, maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES): CheckpointSource {
  const jsonBytes = new TextEncoder().encode(modelJson).byteLength;
  if (jsonBytes > maxHeaderBytes) fail(`model.json is ${jsonBytes} bytes, above the cap of ${maxHeaderBytes} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(modelJson);
  } catch {
    fail('model.json is not valid JSON');
  }
  if (!isObject(parsed)) return fail('model.json is not a JSON object');
  const groups = parseManifest(parsed.weightsManifest);
  const records: RawTensorRecord[] = [];
  let offset = 0;
  for (const weight of groups.flatMap((group) => group.weights)) {
    const dtype = storedDtype(weight);
    const byteLength = weight.shape.reduce((product, size) => product * size, 1) * (dtype === 'F32' ? 4 : 2);
    records.push({ name: weight.name, dtype, shape: weight.shape, begin: offset, end: offset + byteLength });
    offset += Number.isFinite(byteLength) ? byteLength : 0;
  }
  const userDefined = isObject(parsed.userDefinedMetadata) ? parsed.userDefinedMetadata : {};
  return {
    records,
    data: gatherWeights(groups, weights),
    metadata: userDefined.flowtune,
    metadataLocation: 'userDefinedMetadata.flowtune',
    optimizerState: userDefined.flowtune_optimizer,
    optimizerLocation: 'userDefinedMetadata.flowtune_optimizer',
  };
}

/**
 * Imports a tfjs model.json with its weight file(s), through the same
 * validation as decodeFlowtune (the model.json size counts against the header
 * cap), and returns the same structure.
 */
export function importTfjs(modelJson: string, weights: Uint8Array | ReadonlyMap<string, Uint8Array>, options: DecodeOptions): DecodedFlowtune {
  return readSource(parseTfjsFiles(modelJson, weights, options.maxHeaderBytes), options);
}
