import { describe, expect, it } from 'vitest';
import { spread } from '../core/metrics/spread';
import { formatResultsTable } from './results-table';

describe('spread', () => {
  it('gives mean, sample std, min and max', () => {
    // 0.8, 0.9, 1.0: mean 0.9; squares 0.01 + 0 + 0.01 = 0.02; std = √(0.02 / 2) = 0.1.
    const result = spread([0.8, 0.9, 1.0]);
    expect(result.mean).toBeCloseTo(0.9, 12);
    expect(result.std).toBeCloseTo(0.1, 12);
    expect([result.min, result.max]).toEqual([0.8, 1.0]);
    expect(spread([0.5]).std).toBe(0);
    expect(() => spread([])).toThrow(RangeError);
  });
});

describe('formatResultsTable', () => {
  it('writes one row per task with per-seed and summary columns', () => {
    const table = formatResultsTable([{
      task: 'lift', bcSuccessRate: 0.54, episodes: 100,
      seeds: [
        { seed: 0, successRate: 0.9, envSteps: 600_000, wallSeconds: 900 },
        { seed: 1, successRate: 0.8, envSteps: 602_000, wallSeconds: 960 },
      ],
    }]);
    const rows = table.trim().split('\n');
    expect(rows).toHaveLength(3);
    // mean 0.85, std √((0.05² + 0.05²) / 1) = 0.0707 → 7.1%; steps mean 601,000; minutes 15.0 and 16.0 → mean 15.5.
    expect(rows[2]).toBe('| lift | 54.0% | s0: 90.0%, s1: 80.0% | 85.0% ± 7.1% (80.0%–90.0%) | 601,000 | 15.5 min (15.0–16.0) |');
  });
});
