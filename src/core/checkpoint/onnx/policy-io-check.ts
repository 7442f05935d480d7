/**
 * What an exported policy's metadata_props promise, checked before a session is opened: each count
 * within the bounds a run config allows and equal to the Flowtune metadata's, and the graph's inputs
 * and output named and shaped as Flowtune writes them (policy-graph.ts). A file edited by hand, or
 * by another tool, is refused in one sentence naming the key or the tensor.
 */
import type onnxProto from 'onnx-proto';
import { describeAllowed, fieldSpec, type ConfigKey } from '../../config';
import { CheckpointError } from '../../errors';
import type { FlowtuneMetadata } from '../metadata';
import type { OnnxPolicySpec } from './export-spec';
import { ONNX_POLICY_IO } from './policy-graph';

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
}

/** The dims of a graph input or output: numbers where fixed, the parameter name where symbolic (the batch axis). */
function dimsOf(value: onnxProto.onnx.IValueInfoProto): (number | string)[] {
  return (value.type?.tensorType?.shape?.dim ?? []).map((dim) => (dim.dimParam ? dim.dimParam : Number(dim.dimValue ?? NaN)));
}

const listed = (values: readonly onnxProto.onnx.IValueInfoProto[]) => `[${values.map((value) => `'${value.name ?? ''}'`).join(', ')}]`;

/** Throws CheckpointError unless the graph takes obs and x0 and gives actions, with the shapes the spec's counts give. */
export function checkPolicyGraphIo(graph: onnxProto.onnx.IGraphProto, spec: OnnxPolicySpec): void {
  const inputs = graph.input ?? [];
  const outputs = graph.output ?? [];
  const expected = [
    { io: 'input', name: ONNX_POLICY_IO.obs, dims: [spec.nObsSteps, spec.obsFrameSize], props: ['n_obs_steps', 'obs_dim'] },
    { io: 'input', name: ONNX_POLICY_IO.x0, dims: [spec.horizon, spec.actionDim], props: ['horizon', 'action_dim'] },
    { io: 'output', name: ONNX_POLICY_IO.actions, dims: [spec.nActionSteps, spec.actionDim], props: ['n_action_steps', 'action_dim'] },
  ] as const;
  const names = `inputs '${ONNX_POLICY_IO.obs}' and '${ONNX_POLICY_IO.x0}' and output '${ONNX_POLICY_IO.actions}'`;
  if (inputs.length !== 2 || outputs.length !== 1 || !expected.every(({ io, name }) => (io === 'input' ? inputs : outputs).some((value) => value.name === name))) {
    throw new CheckpointError(`the ONNX model's graph must have ${names}, as Flowtune exports it, but it has inputs ${listed(inputs)} and outputs ${listed(outputs)}`);
  }
  for (const { io, name, dims, props } of expected) {
    const declared = dimsOf((io === 'input' ? inputs : outputs).find((value) => value.name === name)!);
    const fits = declared.length === 3 && typeof declared[0] === 'string' && declared[1] === dims[0] && declared[2] === dims[1];
    if (!fits) {
      throw new CheckpointError(`the ONNX model's graph ${io} '${name}' has shape [${declared.join(', ')}], but its metadata_props '${props[0]}' and '${props[1]}' give [batch, ${dims[0]}, ${dims[1]}]`);
    }
  }
}
