import type * as tf from '@tensorflow/tfjs';
import { ConfigError, ShapeError } from '../errors';
import type { Rng } from '../random';
import type { RowTable, RowValues } from './row-table';

/**
 * One minibatch of a row table: its row indices, and those rows of every field gathered when
 * asked for, so a caller can charge the copy to its own timing phase.
 */
export interface Minibatch<Name extends string, Values extends Record<Name, RowValues> = Record<Name, Float32Array>> {
  /** [M] rows of the table, in minibatch order. */
  rows: Int32Array;
  /** Every field's rows, each a flat [M, ...rowShape]. */
  arrays(): Values;
  /** Every field's rows as tensors [M, ...rowShape]; the caller disposes them. */
  tensors(): Record<Name, tf.Tensor>;
}

function minibatchOf<Name extends string, Values extends Record<Name, RowValues>>(table: RowTable<Name, Values>, rows: Int32Array): Minibatch<Name, Values> {
  return { rows, arrays: () => table.gather(rows), tensors: () => table.tensors(rows) };
}

/** Fisher–Yates shuffle of the valid entries (mask > 0), with the run's RNG: one `rng.int` per position from the last down to 1. */
export function shuffledValidEntries(mask: Float32Array, rng: Rng): Int32Array {
  const valid: number[] = [];
  for (let entry = 0; entry < mask.length; entry++) if (mask[entry] > 0) valid.push(entry);
  for (let position = valid.length - 1; position > 0; position--) {
    const other = rng.int(position + 1);
    [valid[position], valid[other]] = [valid[other], valid[position]];
  }
  return Int32Array.from(valid);
}

/**
 * One epoch over a table, as Stable-Baselines3's RolloutBuffer.get(batch_size) yields it: the
 * valid rows (mask [S] > 0) shuffled with `rng` (drawn when the first minibatch is asked for),
 * cut in order into minibatches of `minibatchSize` rows, the last one shorter when the count
 * does not divide. Every valid row appears exactly once; no masked row appears; no valid row
 * yields no minibatch.
 */
export function* shuffledMinibatches<Name extends string, Values extends Record<Name, RowValues>>(table: RowTable<Name, Values>, mask: Float32Array, rng: Rng, minibatchSize: number): Generator<Minibatch<Name, Values>, void, undefined> {
  if (mask.length !== table.rowCount) throw new ShapeError('mask', `mask has ${mask.length} entries; expected one per row (${table.rowCount})`);
  if (!Number.isInteger(minibatchSize) || minibatchSize < 1) throw new ConfigError('minibatch_size', `minibatch_size must be a positive integer, got ${minibatchSize}`);
  const order = shuffledValidEntries(mask, rng);
  for (let first = 0; first < order.length; first += minibatchSize) {
    yield minibatchOf(table, order.subarray(first, Math.min(first + minibatchSize, order.length)));
  }
}

/** `count` rows of a table drawn uniformly with replacement: one `rng.int(rowCount)` each, in order. */
export function sampledMinibatch<Name extends string, Values extends Record<Name, RowValues>>(table: RowTable<Name, Values>, rng: Rng, count: number): Minibatch<Name, Values> {
  return minibatchOf(table, Int32Array.from({ length: count }, () => rng.int(table.rowCount)));
}
