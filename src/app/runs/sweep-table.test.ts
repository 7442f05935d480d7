import { describe, expect, it } from 'vitest';
import { summarizeSweep } from '../../core/sweep/sweep-summary';
import { sweepHeading, sweepTableRows } from './sweep-table';

describe('sweep table text', () => {
  const result = (variant: string, seed: number, successRate: number, wallSeconds: number) =>
    ({ id: `${variant}-s${seed}`, variant, seed, successRate, meanReturn: 0, envSteps: 1_000_000, wallSeconds });
  const summary = summarizeSweep(
    { preset: 'reinflow-ablation', task: 'pick-cube', variants: ['baseline', 'lr:low', 'lr:high'], runs: new Array(6) },
    [result('baseline', 0, 0.5, 600), result('baseline', 1, 0.7, 660), result('lr:low', 0, 0.45, 720), result('lr:low', 1, 0.55, 780), result('lr:high', 0, 0.9, 90)],
    { episodes: 20, seed: 1000 },
  );

  it('states how many runs finished and how they were evaluated', () => {
    expect(sweepHeading(summary)).toBe('5 of 6 runs finished; final success of the deterministic policy, on 20 episodes from seed 1000');
  });

  it('formats success as percent mean ± sample std, the baseline gap in signed points, steps and minutes', () => {
    const rows = sweepTableRows(summary);
    expect(rows.map((row) => row.variant)).toEqual(['baseline', 'lr:low', 'lr:high']);
    // baseline: mean (0.5 + 0.7) / 2 = 0.6; std √(((−0.1)² + 0.1²) / 1) = 0.1414 → 14.1%.
    expect(rows[0]).toEqual({ variant: 'baseline', seeds: '0, 1', success: '60.0% ± 14.1%', vsBaseline: '—', envSteps: '1,000,000', wallClock: '10.5 min' });
    // lr:low: mean 0.5, 0.5 − 0.6 = −10 points; wall (720 + 780) / 2 = 750 s = 12.5 min.
    expect(rows[1]).toMatchObject({ success: '50.0% ± 7.1%', vsBaseline: '−10.0 pts', wallClock: '12.5 min' });
    // lr:high: one seed, std 0; 0.9 − 0.6 = +30 points.
    expect(rows[2]).toMatchObject({ seeds: '0', success: '90.0% ± 0.0%', vsBaseline: '+30.0 pts', wallClock: '1.5 min' });
  });

  it('gives runs under a minute in seconds', () => {
    const short = { ...summary, variants: [{ ...summary.variants[0], wallSeconds: { mean: 41.6, std: 0, min: 41.6, max: 41.6 } }] };
    expect(sweepTableRows(short)[0].wallClock).toBe('42 s');
  });
});
