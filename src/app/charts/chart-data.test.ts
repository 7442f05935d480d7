import { describe, expect, it } from 'vitest';
import type { MetricRecord } from '../../core/metrics';
import { chartRows, overlaySeries, overlayXDomain, type OverlayRun } from './chart-data';

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

describe('overlaySeries', () => {
  const runA: MetricRecord[] = [
    { 'progress/env_steps': 100, 'progress/wall_s': 1, 'charts/success_rate': 0.2 },
    { 'progress/env_steps': 200, 'progress/wall_s': 2, 'charts/success_rate': 0.6 },
  ];
  // A run on another x grid: fewer env steps per iteration, three iterations.
  const runB: MetricRecord[] = [
    { 'progress/env_steps': 64, 'progress/wall_s': 5, 'charts/success_rate': 0 },
    { 'progress/env_steps': 128, 'progress/wall_s': 9, 'charts/success_rate': 0.5 },
    { 'progress/env_steps': 192, 'progress/wall_s': 13, 'charts/success_rate': 1 },
  ];
  const lacking: MetricRecord[] = [{ 'progress/env_steps': 50, 'losses/policy': 1 }];
  const run = (id: string, records: MetricRecord[] | undefined, hidden = false): OverlayRun => ({ id, name: `run ${id}`, colour: `#${id}`, hidden, records });

  it('keeps each run on its own x values, smoothed separately, in the order given', () => {
    const series = overlaySeries([run('b', runB), run('a', runA)], 'charts/success_rate', 'env_steps', 0.5);
    expect(series.map((entry) => entry.runId)).toEqual(['b', 'a']);
    expect(series[0].rows.map((row) => row.x)).toEqual([64, 128, 192]);
    expect(series[1].rows.map((row) => row.x)).toEqual([100, 200]);
    expect(series[0].colour).toBe('#b');
    expect(series[0].name).toBe('run b');
    // Run a alone, w = 0.5: s2 = (0.5·0.2·0.5 + 0.5·0.6) / (1 − 0.25) = 0.35 / 0.75; run b's values never enter it.
    expect(series[1].rows[1].smooth).toBeCloseTo(0.35 / 0.75, 12);
    expect(overlaySeries([run('b', runB)], 'charts/success_rate', 'wall_time', 0)[0].rows.map((row) => row.x)).toEqual([5, 9, 13]);
  });

  it('leaves out hidden runs, runs not loaded yet and runs lacking the metric', () => {
    const runs = [run('a', runA, true), run('b', runB), run('c', lacking), run('d', undefined)];
    expect(overlaySeries(runs, 'charts/success_rate', 'env_steps', 0).map((entry) => entry.runId)).toEqual(['b']);
    expect(overlaySeries(runs, 'losses/policy', 'env_steps', 0).map((entry) => entry.runId)).toEqual(['c']);
    expect(overlaySeries([run('a', runA, true)], 'charts/success_rate', 'env_steps', 0)).toEqual([]);
  });

  it('splits the point budget over the visible runs', () => {
    const long = (offset: number): MetricRecord[] => Array.from({ length: 3000 }, (_, index) => ({ 'progress/env_steps': index * 10 + offset, 'noise/std': Math.cos(index / 7) }));
    const series = overlaySeries([run('a', long(0)), run('b', long(5))], 'noise/std', 'env_steps', 0, 2000);
    for (const entry of series) {
      expect(entry.rows.length).toBeLessThanOrEqual(1000);
      expect(entry.rows.length).toBeGreaterThan(100);
    }
    expect(series[1].rows[0].x).toBe(5);
  });

  it('spans every drawn run on the x axis', () => {
    const series = overlaySeries([run('a', runA), run('b', runB)], 'charts/success_rate', 'env_steps', 0);
    // Run b starts first (64), run a ends last (200).
    expect(overlayXDomain(series)).toEqual([64, 200]);
    expect(overlayXDomain([])).toEqual([0, 1]);
  });
});
