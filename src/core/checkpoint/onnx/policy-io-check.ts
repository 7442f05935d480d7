/**
 * What an exported policy's metadata_props promise, checked before a session is opened: each count
 * within the bounds a run config allows and equal to the Flowtune metadata's (an image policy's
 * cameras, size and channels too), and the graph's inputs and output named, shaped and typed as
 * Flowtune writes them (policy-graph.ts). A file edited by hand, or by another tool, is refused in
 * one sentence naming the key or the tensor.
 */
import onnxProto from 'onnx-proto';
import { describeAllowed, fieldSpec, type ConfigKey } from '../../config';
import { CheckpointError } from '../../errors';
import type { FlowtuneMetadata } from '../metadata';
import type { OnnxPolicySpec } from './export-spec';
import { ONNX_POLICY_IO } from './policy-graph';

const { onnx } = onnxProto;

/** metadata_props counts that a run config bounds, with the config key and the architecture field holding the same count. */
const BOUNDED_COUNTS = [
  { prop: 'n_obs_steps', field: 'nObsSteps', key: 'policy.n_obs_steps', architecture: 'nObsSteps' },
  { prop: 'horizon', field: 'horizon', key: 'policy.horizon', architecture: 'horizon' },
  { prop: 'n_action_steps', field: 'nActionSteps', key: 'policy.n_action_steps', architecture: 'n_action_steps' },
  { prop: 'denoise_steps', field: 'denoiseSteps', key: 'policy.denoise_steps', architecture: 'denoise_steps' },
] as const satisfies readonly { prop: string; field: keyof OnnxPolicySpec; key: ConfigKey; architecture: string }[];

/** Throws CheckpointError when a count is out of a run config's bounds or differs from the Flowtune metadata's architecture. */
export function checkSpecAgainstMetadata(spec: OnnxPolicySpec, metadata: FlowtuneMetadata): void {
  for (const { prop, field, key, architecture } of BOUNDED_COUNTS) {
    const value = spec[field];
    const bounds = fieldSpec(key);
    if (bounds.kind === 'int' && (value < bounds.min || value > bounds.max)) {
      throw new CheckpointError(`the ONNX model's metadata_props '${prop}' is ${value}, but ${key} must be ${describeAllowed(bounds)}`);
    }
    const stored = metadata.architecture[architecture];
    if (stored !== value) {
      throw new CheckpointError(`the ONNX model's metadata_props '${prop}' is ${value}, but its Flowtune metadata's architecture has ${architecture}=${JSON.stringify(stored)}; export it again from the .flowtune`);
    }
  }
  checkImageAgainstMetadata(spec, metadata);
}

/**
 * Throws CheckpointError unless an image spec's cameras, size and channels are the Flowtune metadata's architecture's
 * (and a spec without images goes with an architecture without them).
 */
function checkImageAgainstMetadata(spec: OnnxPolicySpec, metadata: FlowtuneMetadata): void {
  const stored = metadata.architecture.image as { cameras?: unknown; size?: unknown; channels?: unknown } | undefined;
  const image = spec.image;
  const described = (layout: typeof stored) => (layout ? JSON.stringify({ cameras: layout.cameras, size: layout.size, channels: layout.channels }) : 'no images');
  const same = image && stored
    ? JSON.stringify([image.cameras, image.size, image.channels]) === JSON.stringify([stored.cameras, stored.size, stored.channels])
    : !image && !stored;
  if (!same) {
    throw new CheckpointError(`the ONNX model's metadata_props give ${described(image)}, but its Flowtune metadata's architecture has ${described(stored)}; export it again from the .flowtune`);
  }
}

/** The dims of a graph input or output: numbers where fixed, the parameter name where symbolic (the batch axis). */
function dimsOf(value: onnxProto.onnx.IValueInfoProto): (number | string)[] {
  return (value.type?.tensorType?.shape?.dim ?? []).map((dim) => (dim.dimParam ? dim.dimParam : Number(dim.dimValue ?? NaN)));
}

const listed = (values: readonly onnxProto.onnx.IValueInfoProto[]) => `[${values.map((value) => `'${value.name ?? ''}'`).join(', ')}]`;
/** 'a' and 'b', or 'a', 'b' and 'c'. */
const quotedList = (names: readonly string[]) => names.map((name) => `'${name}'`).join(', ').replace(/, ([^,]*)$/, ' and $1');

const { FLOAT, UINT8 } = onnx.TensorProto.DataType;
const TYPE_NAMES: Readonly<Record<number, string>> = { [FLOAT]: 'float32', [UINT8]: 'uint8' };
const typeName = (elemType: number | null | undefined) => TYPE_NAMES[elemType ?? -1] ?? `ONNX type ${String(elemType)}`;

/** One tensor the graph must declare: its dims after the batch axis, the metadata_props that give them, its element type. */
interface ExpectedValue {
  io: 'input' | 'output';
  name: string;
  dims: readonly number[];
  props: readonly string[];
  elemType: number;
}

function expectedValues(spec: OnnxPolicySpec): ExpectedValue[] {
  const image = spec.image;
  return [
    { io: 'input', name: ONNX_POLICY_IO.obs, dims: [spec.nObsSteps, spec.obsFrameSize], props: ['n_obs_steps', 'obs_dim'], elemType: FLOAT },
    { io: 'input', name: ONNX_POLICY_IO.x0, dims: [spec.horizon, spec.actionDim], props: ['horizon', 'action_dim'], elemType: FLOAT },
    ...(image ? [{
      io: 'input' as const, name: ONNX_POLICY_IO.images, dims: [image.cameras.length, image.size, image.size, image.channels],
      props: ['image_cameras', 'image_size', 'image_channels'], elemType: UINT8,
    }] : []),
    { io: 'output', name: ONNX_POLICY_IO.actions, dims: [spec.nActionSteps, spec.actionDim], props: ['n_action_steps', 'action_dim'], elemType: FLOAT },
  ];
}

/** Throws CheckpointError unless the graph takes obs, x0 (and an image policy's images) and gives actions, with the shapes and types the spec gives. */
export function checkPolicyGraphIo(graph: onnxProto.onnx.IGraphProto, spec: OnnxPolicySpec): void {
  const inputs = graph.input ?? [];
  const outputs = graph.output ?? [];
  const expected = expectedValues(spec);
  const inputNames = expected.filter(({ io }) => io === 'input').map(({ name }) => name);
  const names = `inputs ${quotedList(inputNames)} and output '${ONNX_POLICY_IO.actions}'`;
  if (inputs.length !== inputNames.length || outputs.length !== 1 || !expected.every(({ io, name }) => (io === 'input' ? inputs : outputs).some((value) => value.name === name))) {
    throw new CheckpointError(`the ONNX model's graph must have ${names}, as Flowtune exports it, but it has inputs ${listed(inputs)} and outputs ${listed(outputs)}`);
  }
  for (const { io, name, dims, props, elemType } of expected) {
    const value = (io === 'input' ? inputs : outputs).find((candidate) => candidate.name === name)!;
    const declared = dimsOf(value);
    const fits = declared.length === dims.length + 1 && typeof declared[0] === 'string' && dims.every((size, axis) => declared[axis + 1] === size);
    if (!fits) {
      throw new CheckpointError(`the ONNX model's graph ${io} '${name}' has shape [${declared.join(', ')}], but its metadata_props ${quotedList(props)} give [batch, ${dims.join(', ')}]`);
    }
    const declaredType = value.type?.tensorType?.elemType;
    if (declaredType !== elemType) {
      throw new CheckpointError(`the ONNX model's graph ${io} '${name}' holds ${typeName(declaredType)}, but Flowtune exports it as ${typeName(elemType)}`);
    }
  }
}
