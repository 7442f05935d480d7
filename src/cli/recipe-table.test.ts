import { describe, expect, it } from 'vitest';
import { formatRecipeTable } from './recipe-table';

describe('formatRecipeTable', () => {
  it('writes one row per task and recipe, with start and final success, and steps to the threshold', () => {
    const table = formatRecipeTable([
      {
        task: 'lift', recipe: 'BC → PPO', seeds: [
          { seed: 0, startSuccessRate: 0.46, finalSuccessRate: 0.97, envStepsToThreshold: 300_000, wallSeconds: 360 },
          { seed: 1, startSuccessRate: 0.46, finalSuccessRate: 0.95, envStepsToThreshold: 340_000, wallSeconds: 372 },
        ],
      },
      {
        task: 'lift', recipe: 'BC → offline → PPO', seeds: [
          { seed: 0, startSuccessRate: 0.3, finalSuccessRate: 0.9, envStepsToThreshold: 500_000, wallSeconds: 400 },
          { seed: 1, startSuccessRate: 0.4, finalSuccessRate: 0.8, wallSeconds: 420 },
        ],
      },
    ], 0.9);
    const rows = table.trim().split('\n');
    expect(rows[0]).toContain('env steps to 90% per seed');
    // One shared start prints once; mean of 0.97 and 0.95 is 0.96, std √(2·0.01²/1) = 0.0141 → 1.4%; steps mean 320k; minutes 6.0 and 6.2 → 6.1.
    expect(rows[2]).toBe('| lift | BC → PPO | 46.0% | s0: 97.0%, s1: 95.0% | 96.0% ± 1.4% | s0: 300k, s1: 340k (mean 320k) | 6.1 min |');
    // Starts differ per seed: mean 35.0% ± √(2·0.05²) = 7.1%; a seed that never got there gets no mean.
    expect(rows[3]).toBe('| lift | BC → offline → PPO | 35.0% ± 7.1% (30.0%, 40.0%) | s0: 90.0%, s1: 80.0% | 85.0% ± 7.1% | s0: 500k, s1: never | 6.8 min |');
  });
});
