import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';

/** The values of a row table's field: floats, or raw bytes (uint8 camera images). */
export type RowValues = Float32Array | Uint8Array;

/** One named field of a row table: `rowCount` rows of `rowShape` each, row-major. */
export interface RowField<V extends RowValues = RowValues> {
  /** [S, ...rowShape], flat */
  values: V;
  /** The shape of one row; [] for one number per row. */
  rowShape: readonly number[];
  /**
   * Table rows that share each stored row (default 1): row r reads stored row ⌊r / rowsPerValue⌋, so a value common to
   * consecutive rows (a decision's observation and camera images, under each of its denoising steps) is kept once.
   */
  rowsPerValue?: number;
}

/**
 * Copies rows `rowIndices` of a flat [S, width] array into a new [M, width] array of its type, in the order asked
 * (repeats included); each table row reads stored row ⌊row / rowsPerValue⌋.
 */
function gatherRows<V extends RowValues>(values: V, width: number, rowIndices: ArrayLike<number>, rowsPerValue: number): V {
  const out = (values instanceof Uint8Array ? new Uint8Array(rowIndices.length * width) : new Float32Array(rowIndices.length * width)) as V;
  for (let row = 0; row < rowIndices.length; row++) {
    const from = Math.floor(rowIndices[row] / rowsPerValue) * width;
    out.set(values.subarray(from, from + width), row * width);
  }
  return out;
}

/**
 * Named flat arrays that share their rows (a rollout's decisions, a demo set's samples), as
 * Stable-Baselines3's buffers hold them: one gather copies the same rows out of every field.
 * Fields are float32 unless `Values` says a field holds bytes.
 */
export class RowTable<Name extends string, Values extends Record<Name, RowValues> = Record<Name, Float32Array>> {
  private readonly widths = new Map<Name, number>();

  /**
   * Throws a ShapeError naming the first field that does not hold `rowCount` rows of its shape (rowCount / rowsPerValue
   * stored rows for a shared field, whose rowsPerValue must divide rowCount).
   */
  constructor(readonly rowCount: number, readonly fields: { readonly [K in Name]: RowField<Values[K]> }) {
    for (const name of this.names) {
      const { values, rowShape, rowsPerValue = 1 } = fields[name];
      const width = rowShape.reduce((product, size) => product * size, 1);
      if (!Number.isSafeInteger(rowsPerValue) || rowsPerValue < 1 || rowCount % rowsPerValue !== 0) {
        throw new ShapeError(name, `${name} shares each stored row among ${rowsPerValue} table rows, which must be a whole number that divides the ${rowCount} rows`);
      }
      const stored = rowCount / rowsPerValue;
      if (values.length !== stored * width) {
        const sharing = rowsPerValue > 1 ? `, one per ${rowsPerValue} table rows` : '';
        throw new ShapeError(name, `${name} must hold ${stored} rows of [${rowShape.join(', ')}] (${stored * width} values${sharing}), got ${values.length}`);
      }
      this.widths.set(name, width);
    }
  }

  get names(): Name[] {
    return Object.keys(this.fields) as Name[];
  }

  /** Rows `rowIndices` (M of them, repeats allowed) of every field, each a new flat [M, ...rowShape] of the field's type. */
  gather(rowIndices: ArrayLike<number>): Values {
    const out = {} as Values;
    for (const name of this.names) out[name] = gatherRows(this.fields[name].values, this.widths.get(name)!, rowIndices, this.fields[name].rowsPerValue ?? 1);
    return out;
  }

  /** Gathered rows (a table's, possibly transformed) as float32 tensors [M, ...rowShape]; bytes become their values 0..255. */
  tensorsOf(arrays: Values, rows: number): Record<Name, tf.Tensor> {
    return tf.tidy(() => {
      const out = {} as Record<Name, tf.Tensor>;
      for (const name of this.names) out[name] = tf.tensor(arrays[name], [rows, ...this.fields[name].rowShape], 'float32');
      return out;
    });
  }

  /** The same rows as float32 tensors [M, ...rowShape], in field order; the caller disposes them. */
  tensors(rowIndices: ArrayLike<number>): Record<Name, tf.Tensor> {
    return this.tensorsOf(this.gather(rowIndices), rowIndices.length);
  }
}
