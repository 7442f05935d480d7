import { describe, expect, it } from 'vitest';
import { seedBand } from './seed-band';

describe('seedBand', () => {
  it('interpolates each seed onto the union of their x where all reached, and takes mean, min and max there', () => {
    const band = seedBand([
      { xs: [0, 100, 200], ys: [0, 10, 20] },
      // Logs at other env steps, and reaches further: its point at 300 lies outside the common span.
      { xs: [50, 150, 250, 300], ys: [5, 5, 25, 40] },
    ]);
    // The common span is [50, 200]: the first seed starts at 0, the second at 50; the first ends at 200.
    expect(band.x).toEqual([50, 100, 150, 200]);
    // Seed 0 at 50: halfway from 0 to 10 → 5; at 150: halfway from 10 to 20 → 15.
    // Seed 1 at 100: halfway from 5 to 5 → 5; at 200: halfway from 5 (150) to 25 (250) → 15.
    // Seeds at x:   50 → (5, 5), 100 → (10, 5), 150 → (15, 5), 200 → (20, 15).
    expect(band.mean).toEqual([5, 7.5, 10, 17.5]);
    expect(band.low).toEqual([5, 5, 5, 15]);
    expect(band.high).toEqual([5, 10, 15, 20]);
    expect(band.seeds).toBe(2);
  });

  it('skips points that are not finite, and a seed with none; one seed is its own band', () => {
    const band = seedBand([{ xs: [0, 10, 20], ys: [1, Number.NaN, 3] }, { xs: [], ys: [] }]);
    // Without the NaN at 10, the seed is the line from (0, 1) to (20, 3); 10 is no longer a grid point.
    expect(band).toEqual({ x: [0, 20], mean: [1, 3], low: [1, 3], high: [1, 3], seeds: 1 });
  });

  it('is empty when the seeds share no x, and replaces a long grid with evenly spaced points', () => {
    expect(seedBand([{ xs: [0, 1], ys: [0, 1] }, { xs: [2, 3], ys: [0, 1] }]).x).toEqual([]);
    const long = seedBand([{ xs: [0, 1, 2, 3, 4], ys: [0, 2, 4, 6, 8] }], 3);
    // Three points over [0, 4]: 0, 2 and 4, on the line y = 2x.
    expect(long.x).toEqual([0, 2, 4]);
    expect(long.mean).toEqual([0, 4, 8]);
  });
});
