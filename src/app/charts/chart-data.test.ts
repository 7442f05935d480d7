import { describe, expect, it } from 'vitest';
import type { MetricRecord } from '../../core/metrics';
import { chartRows } from './chart-data';

describe('chartRows', () => {
  it('skips records without the metric and smooths the rest with the debiased EMA', () => {
    const records: MetricRecord[] = [
      { 'progress/env_steps': 10, 'progress/wall_s': 1, 'losses/policy': 2 },
      { 'progress/env_steps': 20, 'progress/wall_s': 2 },
      { 'progress/env_steps': 30, 'progress/wall_s': 3, 'losses/policy': 4 },
    ];
    const rows = chartRows(records, 'losses/policy', 'env_steps', 0.5);
    // w = 0.5: s1 = 0.5·2 / (1 − 0.5) = 2; s2 = (0.5·1 + 0.5·4) / (1 − 0.25) = 2.5 / 0.75 = 3.333…
    expect(rows.map((row) => row.x)).toEqual([10, 30]);
    expect(rows.map((row) => row.raw)).toEqual([2, 4]);
    expect(rows[0].smooth).toBeCloseTo(2, 12);
    expect(rows[1].smooth).toBeCloseTo(2.5 / 0.75, 12);
    expect(chartRows(records, 'losses/policy', 'wall_time', 0).map((row) => row.x)).toEqual([1, 3]);
  });

  it('matches a float64 EMA on random data and keeps at most maxPoints rows', () => {
    const weight = 0.8;
    const records: MetricRecord[] = Array.from({ length: 5000 }, (_, index) => ({ 'progress/env_steps': index * 8, 'charts/episode_return': Math.sin(index / 50) + Math.random() }));
    const full = chartRows(records, 'charts/episode_return', 'env_steps', weight, 100_000);
    let last = 0;
    for (let index = 0; index < records.length; index++) {
      last = last * weight + (1 - weight) * (records[index]['charts/episode_return'] as number);
      expect(full[index].smooth).toBeCloseTo(last / (1 - weight ** (index + 1)), 9);
    }
    const reduced = chartRows(records, 'charts/episode_return', 'env_steps', weight, 2000);
    expect(reduced.length).toBeLessThanOrEqual(2000);
    expect(reduced.length).toBeGreaterThan(100);
    expect(reduced[0].x).toBe(0);
    expect(reduced.at(-1)!.x).toBe(4999 * 8);
    for (let index = 1; index < reduced.length; index++) expect(reduced[index].x).toBeGreaterThan(reduced[index - 1].x);
  });

  it('rejects a smoothing weight outside [0, 1)', () => {
    expect(() => chartRows([{ 'progress/env_steps': 1, 'noise/std': 1 }], 'noise/std', 'env_steps', 1)).toThrow(/smoothing weight/);
  });
});
