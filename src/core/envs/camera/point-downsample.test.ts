import { describe, expect, it } from 'vitest';
import { createRng } from '../../random';
import { farthestPointIndices, seededRandomIndices, writeSampledPoints } from './point-downsample';

/** [count, 3] points on the x axis at x = 0, 1, ..., count − 1. */
const onALine = (count: number) => Float64Array.from({ length: count * 3 }, (_, element) => (element % 3 === 0 ? element / 3 : 0));

describe('farthest-point sampling', () => {
  it('starts at the first point and then takes the farthest each time', () => {
    // 0..10 on a line: start at 0, the farthest is 10, then 5 (5 from both), then 2 (ties toward the lower index), then 7.
    const indices = farthestPointIndices(onALine(11), 11, 5, new Int32Array(5));
    expect(Array.from(indices)).toEqual([0, 10, 5, 2, 7]);
  });

  it('takes every point and repeats them in order when there are fewer than N', () => {
    const indices = farthestPointIndices(onALine(3), 3, 7, new Int32Array(7));
    expect(Array.from(indices)).toEqual([0, 2, 1, 0, 2, 1, 0]);
  });

  it('writes zeros when no point survives', () => {
    const out = new Float32Array(12).fill(9);
    const indices = farthestPointIndices(new Float64Array(0), 0, 4, new Int32Array(4));
    writeSampledPoints(new Float64Array(0), 0, indices, 4, out, 0);
    expect(Array.from(out)).toEqual(new Array(12).fill(0));
  });
});

describe('seeded random sampling', () => {
  it('draws distinct points, the same ones for the same seed and others for another', () => {
    const pick = (seed: number) => Array.from(seededRandomIndices(100, 20, createRng(seed), new Int32Array(20)));
    const first = pick(3);
    expect(new Set(first).size).toBe(20);
    expect(first.every((index) => index >= 0 && index < 100)).toBe(true);
    expect(pick(3)).toEqual(first);
    expect(pick(4)).not.toEqual(first);
  });

  it('repeats its permutation of every point when there are fewer than N', () => {
    const indices = Array.from(seededRandomIndices(3, 8, createRng(1), new Int32Array(8)));
    expect(new Set(indices.slice(0, 3))).toEqual(new Set([0, 1, 2]));
    expect(indices.slice(3)).toEqual([...indices.slice(0, 3), ...indices.slice(0, 2)]);
  });
});

describe('writeSampledPoints', () => {
  it('copies the chosen points as [N, 3] float32 at the offset', () => {
    const out = new Float32Array(8);
    writeSampledPoints(onALine(5), 5, Int32Array.from([4, 1]), 2, out, 2);
    expect(Array.from(out)).toEqual([0, 0, 4, 0, 0, 1, 0, 0]);
  });
});
