import { describe, expect, it } from 'vitest';
import { hoverPoints } from './hover';

describe('hoverPoints', () => {
  it('picks every shared-grid series at the nearest x, as a single-run chart does', () => {
    const xs = [0, 10, 20, 30];
    const picked = hoverPoints([{ xs, ranged: false }, { xs, ranged: false }], 14, 1);
    expect(picked).toEqual({ x: 10, indices: [1, 1] });
    // Far outside the grid an unranged series still shows its last point.
    expect(hoverPoints([{ xs, ranged: false }], 500, 1)).toEqual({ x: 30, indices: [3] });
  });

  it('picks each run on its own x values and puts the cursor on the nearest of them', () => {
    const runA = [0, 100, 200];
    const runB = [0, 64, 128, 192, 256];
    // x = 120: run a's nearest is 100 (index 1), run b's 128 (index 2); 128 is nearer, so the cursor sits there.
    expect(hoverPoints([{ xs: runA, ranged: true }, { xs: runB, ranged: true }], 120, 5)).toEqual({ x: 128, indices: [1, 2] });
  });

  it('leaves out a ranged run beyond its end by more than the tolerance', () => {
    const short = [0, 50];
    const long = [0, 100, 200, 300];
    expect(hoverPoints([{ xs: short, ranged: true }, { xs: long, ranged: true }], 250, 10)).toEqual({ x: 200, indices: [-1, 2] });
    // Within the tolerance of its last point it still counts.
    expect(hoverPoints([{ xs: short, ranged: true }, { xs: long, ranged: true }], 58, 10)?.indices).toEqual([1, 1]);
  });

  it('gives nothing when no series has a point there', () => {
    expect(hoverPoints([], 3, 1)).toBeUndefined();
    expect(hoverPoints([{ xs: [], ranged: false }], 3, 1)).toBeUndefined();
    expect(hoverPoints([{ xs: [10, 20], ranged: true }], 100, 1)).toBeUndefined();
  });
});
