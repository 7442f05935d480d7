import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatLocomotionTable, keptCells, type PublishedFigures } from './locomotion-table';

const published = JSON.parse(readFileSync(new URL('../../public/results/published-locomotion.json', import.meta.url), 'utf8')) as PublishedFigures;

describe('formatLocomotionTable', () => {
  it('puts each task\'s seeds as mean ± std beside the published figures, and says what was not run', () => {
    const table = formatLocomotionTable([
      {
        task: 'hopper', episodes: 100,
        gaussian: [
          { seed: 0, meanReturn: 2000, envSteps: 1_001_472, wallSeconds: 1800 },
          { seed: 1, meanReturn: 2400, envSteps: 1_001_472, wallSeconds: 2400 },
        ],
      },
    ], published);
    // Mean 2200, sample std sqrt((200² + 200²)/1) = 282.8; wall-clock 30 and 40 min → 35.
    expect(table).toContain('| hopper | 2200 ± 283 (s0 2000, s1 2400); 1,001,472 steps, 35 min | 2382.86 ± 271.74, 25.7 min | not run | 1432 → 3205 after 80M steps; 1592, 1693, 1673 at 0.8M | not run | 1413 → 3281 after 80M steps |');
    expect(table).toContain('100 fresh evaluation episodes per run');
    const single = formatLocomotionTable([{ task: 'walker2d', episodes: 100, gaussian: [{ seed: 0, meanReturn: 4915.6, envSteps: 1000, wallSeconds: 60 }] }], published);
    expect(single).toContain('| walker2d | 4916 (1 seed, s0); 1,000 steps, 1 min | 2287.95 ± 571.78, 24.3 min |');
    // A BC checkpoint whose PPO runs have not finished shows its own return before the arrow.
    const bcOnly = formatLocomotionTable([{ task: 'hopper', episodes: 100, gaussian: [], flow: { bcReturn: 911.05, seeds: [] } }], published);
    expect(bcOnly).toContain('| hopper | not run | 2382.86 ± 271.74, 25.7 min | 911 → not run | 1432 → 3205 after 80M steps; 1592, 1693, 1673 at 0.8M | not run | 1413 → 3281 after 80M steps |');
    // The DPPO column: the diffusion BC's return, then its runs' (one seed: no spread).
    const dppo = formatLocomotionTable([{ task: 'walker2d', episodes: 100, gaussian: [], dppo: { bcReturn: 1200.4, seeds: [{ seed: 0, meanReturn: 1500.2, envSteps: 1_003_520, wallSeconds: 3000 }] } }], published);
    expect(dppo).toContain('| 1200 → 1500 (1 seed, s0); 1,003,520 steps, 50 min | 3038 → 3886 after 80M steps |');
  });

  it('carries a kept task\'s own cells over from an earlier table, redraws the published ones, and prints the wall-clock note', () => {
    // An earlier table without the DPPO columns: its DPPO cell reads 'not run'.
    const earlier = [
      '| task | Gaussian PPO from scratch (ours) | CleanRL Gaussian PPO (published) | BC → flow PPO (ours) | ReinFlow (published) |',
      '|---|---|---|---|---|',
      '| walker2d | 5130 ± 325 (s0 4916); 1,001,472 steps, 39 min | old | 784 → 2461 ± 279; 1,004,168 steps, 27 min | old |',
    ].join('\n');
    const cells = keptCells(earlier, 'walker2d');
    expect(cells?.get('BC → flow PPO (ours)')).toBe('784 → 2461 ± 279; 1,004,168 steps, 27 min');
    expect(keptCells(earlier, 'hopper')).toBeUndefined();
    const table = formatLocomotionTable([
      { task: 'hopper', episodes: 100, gaussian: [{ seed: 0, meanReturn: 2000, envSteps: 1000, wallSeconds: 60 }] },
      { task: 'walker2d', episodes: 100, gaussian: [], kept: cells },
    ], published, 'three runs at a time on the 2 cores.');
    expect(table).toContain('| walker2d | 5130 ± 325 (s0 4916); 1,001,472 steps, 39 min | 2287.95 ± 571.78, 24.3 min | 784 → 2461 ± 279; 1,004,168 steps, 27 min | 2740 → 4109');
    expect(table).toContain('| not run | 3038 → 3886 after 80M steps |');
    expect(table).toContain('The walker2d row is carried over from an earlier run of this table. Wall-clock: three runs at a time on the 2 cores.');
  });
});
