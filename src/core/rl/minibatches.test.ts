import { describe, expect, it } from 'vitest';
import { ConfigError, ShapeError } from '../errors';
import { createRng, type Rng } from '../random';
import { sampledMinibatch, shuffledMinibatches, shuffledValidEntries } from './minibatches';
import { RowTable } from './row-table';

/** S rows of `width` numbers where row r holds 100·r + column. */
function rowsOf(rowCount: number, width: number): Float32Array {
  return Float32Array.from({ length: rowCount * width }, (_, index) => 100 * Math.floor(index / width) + (index % width));
}

function tableOf(rowCount: number) {
  return new RowTable(rowCount, {
    value: { values: rowsOf(rowCount, 1), rowShape: [] },
    obs: { values: rowsOf(rowCount, 5), rowShape: [5] },
    chain: { values: rowsOf(rowCount, 6), rowShape: [3, 2] },
  });
}

/** 20 rows, every third one masked out: 13 valid. */
const MASK = Float32Array.from({ length: 20 }, (_, row) => (row % 3 === 1 ? 0 : 1));
const VALID = [...MASK.keys()].filter((row) => MASK[row] > 0);

/** The shuffle as ppoUpdate wrote it before minibatches had their own module, kept here as the reference. */
function referenceShuffle(mask: Float32Array, rng: Rng): number[] {
  const valid: number[] = [];
  for (let entry = 0; entry < mask.length; entry++) if (mask[entry] > 0) valid.push(entry);
  for (let position = valid.length - 1; position > 0; position--) {
    const other = rng.int(position + 1);
    [valid[position], valid[other]] = [valid[other], valid[position]];
  }
  return valid;
}

describe('shuffledMinibatches', () => {
  it('yields every valid row exactly once per epoch and never a masked one, in minibatches of the size asked', () => {
    const rng = createRng(4);
    for (let epoch = 0; epoch < 3; epoch++) {
      const minibatches = [...shuffledMinibatches(tableOf(20), MASK, rng, 4)];
      expect(minibatches.map((minibatch) => minibatch.rows.length)).toEqual([4, 4, 4, 1]);
      const seen = minibatches.flatMap((minibatch) => [...minibatch.rows]);
      expect([...seen].sort((a, b) => a - b)).toEqual(VALID);
      expect(seen).not.toEqual(VALID);
    }
  });

  it('gathers each minibatch\'s own rows for every width', () => {
    for (const minibatch of shuffledMinibatches(tableOf(20), MASK, createRng(8), 5)) {
      const { value, obs, chain } = minibatch.arrays();
      const rows = [...minibatch.rows];
      expect([...value]).toEqual(rows.map((row) => 100 * row));
      expect([...obs]).toEqual(rows.flatMap((row) => [0, 1, 2, 3, 4].map((column) => 100 * row + column)));
      expect([...chain]).toEqual(rows.flatMap((row) => [0, 1, 2, 3, 4, 5].map((column) => 100 * row + column)));
    }
  });

  it('keeps the order of the Fisher–Yates shuffle over the valid entries, epoch after epoch, and leaves the Rng where it did', () => {
    const ours = createRng(31);
    const reference = createRng(31);
    for (let epoch = 0; epoch < 4; epoch++) {
      const rows = [...shuffledMinibatches(tableOf(20), MASK, ours, 3)].flatMap((minibatch) => [...minibatch.rows]);
      expect(rows).toEqual(referenceShuffle(MASK, reference));
    }
    expect(ours.state()).toEqual(reference.state());
    expect([...shuffledValidEntries(MASK, createRng(2))]).toEqual(referenceShuffle(MASK, createRng(2)));
  });

  it('draws nothing before the first minibatch is asked for', () => {
    const rng = createRng(5);
    const before = rng.state();
    const epoch = shuffledMinibatches(tableOf(20), MASK, rng, 4);
    expect(rng.state()).toEqual(before);
    epoch.next();
    expect(rng.state()).not.toEqual(before);
  });

  it('yields nothing for a mask with no valid row, and one minibatch for one valid row, drawing nothing', () => {
    const rng = createRng(6);
    const before = rng.state();
    expect([...shuffledMinibatches(tableOf(4), new Float32Array(4), rng, 2)]).toEqual([]);
    const single = [...shuffledMinibatches(tableOf(4), Float32Array.of(0, 0, 1, 0), rng, 2)];
    expect(single.map((minibatch) => [...minibatch.rows])).toEqual([[2]]);
    expect(rng.state()).toEqual(before);
  });

  it('refuses a mask of another length and a minibatch size below 1', () => {
    expect(() => [...shuffledMinibatches(tableOf(4), new Float32Array(5), createRng(1), 2)]).toThrow(ShapeError);
    expect(() => [...shuffledMinibatches(tableOf(4), new Float32Array(4), createRng(1), 0)]).toThrow(ConfigError);
  });
});

describe('sampledMinibatch', () => {
  it('draws rows uniformly with replacement, one rng.int(rowCount) each, and gathers them', () => {
    const rng = createRng(12);
    const reference = createRng(12);
    const minibatch = sampledMinibatch(tableOf(7), rng, 30);
    const expected = Array.from({ length: 30 }, () => reference.int(7));
    expect([...minibatch.rows]).toEqual(expected);
    expect(new Set(expected).size).toBeLessThan(30);
    expect([...minibatch.arrays().value]).toEqual(expected.map((row) => 100 * row));
    expect(rng.state()).toEqual(reference.state());
  });
});
