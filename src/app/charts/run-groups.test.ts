import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig, type RunConfig } from '../../core/config';
import type { RunSeries } from './chart-data';
import { groupBand, groupRunsBy } from './run-groups';

interface TestRun {
  id: string;
  config?: RunConfig;
}

const run = (id: string, overrides: string[]): TestRun => ({ id, config: applyOverrides(defaultConfig(), overrides) });

function series(runId: string, points: [number, number][]): RunSeries {
  return { runId, name: runId, colour: '#000', rows: points.map(([x, smooth]) => ({ x, raw: smooth, smooth })) };
}

describe('groupRunsBy', () => {
  it('puts the seeds of each learning rate together, in the order runs come', () => {
    const runs: TestRun[] = [
      run('a0', ['actor_lr=0.001', 'seed=0']), run('b0', ['actor_lr=0.0001', 'seed=0']),
      run('a1', ['actor_lr=0.001', 'seed=1']), run('a2', ['actor_lr=0.001', 'seed=2']), { id: 'loading' },
    ];
    const groups = groupRunsBy(runs, 'actor_lr');
    expect(groups.map((group) => [group.value, group.runs.map((entry) => entry.id)])).toEqual([['0.001', ['a0', 'a1', 'a2']], ['0.0001', ['b0']]]);
  });
});

describe('groupBand', () => {
  it('is the mean and min–max of three seeds at each shared x', () => {
    // At x = 0: (0 + 3 + 6) / 3 = 3, band [0, 6]; at x = 10: (1 + 5 + 3) / 3 = 3, band [1, 5].
    const band = groupBand([series('s0', [[0, 0], [10, 1]]), series('s1', [[0, 3], [10, 5]]), series('s2', [[0, 6], [10, 3]])])!;
    expect(band.xs).toEqual([0, 10]);
    expect(band.mean).toEqual([3, 3]);
    expect(band.min).toEqual([0, 1]);
    expect(band.max).toEqual([6, 5]);
    expect(band.runs).toBe(3);
  });

  it('keeps to the x range every run covers, interpolating runs logged at other x values', () => {
    // s1 is logged at 5 and 15 only; on s0's grid inside [5, 15], s1 at 10 is halfway: (2 + 4) / 2 = 3.
    const band = groupBand([series('s0', [[0, 9], [5, 1], [10, 2], [15, 3], [20, 9]]), series('s1', [[5, 2], [15, 4]])])!;
    expect(band.xs).toEqual([5, 10, 15]);
    expect(band.mean).toEqual([1.5, 2.5, 3.5]);
    expect(band.min).toEqual([1, 2, 3]);
    expect(band.max).toEqual([2, 3, 4]);
  });

  it('draws nothing for no runs or runs whose ranges do not meet', () => {
    expect(groupBand([])).toBeUndefined();
    expect(groupBand([series('s0', [[0, 1], [1, 1]]), series('s1', [[2, 1], [3, 1]])])).toBeUndefined();
  });
});
