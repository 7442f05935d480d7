import { CheckpointError } from '../../errors';
import type { WeightEntry } from '../../policy/flow-policy';
import type { GraphBuilder } from './graph-builder';

/** Looks up a policy parameter by its dotted name and returns its initializer's name (the ONNX twin of ParamLookup). */
export type GraphParam = (name: string) => string;

/** Stores each parameter once, on first use, as an initializer named after the parameter (after `prefix`: a second net's). */
export function graphParams(builder: GraphBuilder, weights: ReadonlyMap<string, WeightEntry>, prefix = ''): GraphParam {
  const stored = new Map<string, string>();
  return (name) => {
    const existing = stored.get(name);
    if (existing) return existing;
    const entry = weights.get(name);
    if (!entry) throw new CheckpointError(`the policy has no parameter '${name}', which its ONNX graph needs`);
    const initializer = builder.floatTensor(`${prefix}${name}`, entry.data, entry.shape);
    stored.set(name, initializer);
    return initializer;
  };
}
