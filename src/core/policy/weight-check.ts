import { ShapeError } from '../errors';

/** One tensor of a weight map: shape and row-major float32 data. */
export interface WeightEntry {
  shape: number[];
  data: Float32Array;
}

/** Every parameter of `shapes` present in `weights` with its shape, and nothing else; throws ShapeError naming the tensor. */
export function checkWeights(shapes: ReadonlyMap<string, readonly number[]>, weights: ReadonlyMap<string, WeightEntry>): void {
  for (const [name, shape] of shapes) {
    const entry = weights.get(name);
    if (!entry) throw new ShapeError(name, `weights are missing tensor '${name}' (expected shape [${shape.join(', ')}])`);
    const size = shape.reduce((product, dim) => product * dim, 1);
    if (entry.shape.length !== shape.length || entry.shape.some((dim, axis) => dim !== shape[axis]) || entry.data.length !== size) {
      throw new ShapeError(name, `tensor '${name}' has shape [${entry.shape.join(', ')}] (${entry.data.length} values) but the policy expects [${shape.join(', ')}]`);
    }
  }
  for (const name of weights.keys()) {
    if (!shapes.has(name)) throw new ShapeError(name, `weights contain tensor '${name}' that this policy architecture does not have`);
  }
}
