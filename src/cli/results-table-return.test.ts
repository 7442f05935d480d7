import { describe, expect, it } from 'vitest';
import { formatResultsTable } from './results-table';

describe('formatResultsTable with a task without a success rule', () => {
  const lift = {
    task: 'lift', bcSuccessRate: 0.54, episodes: 100,
    seeds: [{ seed: 0, successRate: 0.9, envSteps: 600_000, wallSeconds: 900 }],
  };
  const pendulum = {
    task: 'pendulum-swingup', bcSuccessRate: null, bcMeanReturn: -180.5, episodes: 100,
    seeds: [
      { seed: 0, successRate: null, meanReturn: -20, envSteps: 100_000, wallSeconds: 60 },
      { seed: 1, successRate: null, meanReturn: 20, envSteps: 100_000, wallSeconds: 120 },
    ],
  };

  it('puts it in a table of its own, measured by return, after the success table', () => {
    const lines = formatResultsTable([pendulum, lift]).trimEnd().split('\n');
    expect(lines).toEqual([
      '| task | BC success | PPO success per seed | PPO mean ± std (min–max) | env steps per run | wall-clock per run |',
      '|---|---|---|---|---|---|',
      '| lift | 54.0% | s0: 90.0% | 90.0% ± 0.0% (90.0%–90.0%) | 600,000 | 15.0 min (15.0–15.0) |',
      '',
      'Tasks without a success rule, measured by final mean return:',
      '',
      '| task | BC return | PPO return per seed | PPO mean ± std (min–max) | env steps per run | wall-clock per run |',
      '|---|---|---|---|---|---|',
      // -20 and 20: mean 0, std √((20² + 20²) / 1) = 28.28.
      '| pendulum-swingup | -180.50 | s0: -20.00, s1: 20.00 | 0.00 ± 28.28 (-20.00–20.00) | 100,000 | 1.5 min (1.0–2.0) |',
    ]);
  });

  it('has no success table when no task has a success rule', () => {
    expect(formatResultsTable([pendulum])).toMatch(/^Tasks without a success rule/);
  });
});
