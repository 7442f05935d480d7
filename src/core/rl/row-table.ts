import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';

/** One named field of a row table: `rowCount` rows of `rowShape` each, row-major. */
export interface RowField {
  /** [S, ...rowShape], flat */
  values: Float32Array;
  /** The shape of one row; [] for one number per row. */
  rowShape: readonly number[];
}

/** Copies rows `rowIndices` of a flat [S, width] array into a new [M, width] array, in the order asked (repeats included). */
function gatherRows(values: Float32Array, width: number, rowIndices: ArrayLike<number>): Float32Array {
  const out = new Float32Array(rowIndices.length * width);
  for (let row = 0; row < rowIndices.length; row++) {
    const from = rowIndices[row] * width;
    out.set(values.subarray(from, from + width), row * width);
  }
  return out;
}

/**
 * Named flat arrays that share their rows (a rollout's decisions, a demo set's samples), as
 * Stable-Baselines3's buffers hold them: one gather copies the same rows out of every field.
 */
export class RowTable<Name extends string> {
  private readonly widths = new Map<Name, number>();

  /** Throws a ShapeError naming the first field that does not hold `rowCount` rows of its shape. */
  constructor(readonly rowCount: number, readonly fields: Readonly<Record<Name, RowField>>) {
    for (const name of this.names) {
      const { values, rowShape } = fields[name];
      const width = rowShape.reduce((product, size) => product * size, 1);
      if (values.length !== rowCount * width) {
        throw new ShapeError(name, `${name} must hold ${rowCount} rows of [${rowShape.join(', ')}] (${rowCount * width} values), got ${values.length}`);
      }
      this.widths.set(name, width);
    }
  }

  get names(): Name[] {
    return Object.keys(this.fields) as Name[];
  }

  /** Rows `rowIndices` (M of them, repeats allowed) of every field, each a new flat [M, ...rowShape]. */
  gather(rowIndices: ArrayLike<number>): Record<Name, Float32Array> {
    const out = {} as Record<Name, Float32Array>;
    for (const name of this.names) out[name] = gatherRows(this.fields[name].values, this.widths.get(name)!, rowIndices);
    return out;
  }

  /** The same rows as float32 tensors [M, ...rowShape], in field order; the caller disposes them. */
  tensors(rowIndices: ArrayLike<number>): Record<Name, tf.Tensor> {
    const arrays = this.gather(rowIndices);
    return tf.tidy(() => {
      const out = {} as Record<Name, tf.Tensor>;
      for (const name of this.names) out[name] = tf.tensor(arrays[name], [rowIndices.length, ...this.fields[name].rowShape], 'float32');
      return out;
    });
  }
}
