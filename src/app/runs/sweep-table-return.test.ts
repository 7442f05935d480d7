import { describe, expect, it } from 'vitest';
import { summarizeSweep } from '../../core/sweep/sweep-summary';
import { sweepHeading, sweepTableRows } from './sweep-table';

describe('sweep table text for a task without a success rule', () => {
  const result = (variant: string, seed: number, meanReturn: number) =>
    ({ id: `${variant}-s${seed}`, variant, seed, successRate: null, meanReturn, envSteps: 1_000, wallSeconds: 30 });
  const summary = summarizeSweep(
    { preset: 'reinflow-ablation', task: 'pendulum-swingup', variants: ['baseline', 'lr:high'], runs: new Array(2) },
    [result('baseline', 0, -120.5), result('lr:high', 0, -80.25)],
    { episodes: 20, seed: 1000 },
  );

  it('says the variants are ranked by mean return and shows returns best first', () => {
    expect(sweepHeading(summary)).toBe('2 of 2 runs finished; final mean return (no success rule; best first) of the deterministic policy, on 20 episodes from seed 1000');
    expect(sweepTableRows(summary).map(({ variant, success, vsBaseline }) => [variant, success, vsBaseline])).toEqual([
      ['lr:high', '-80.25 ± 0.00', '+40.25'],
      ['baseline', '-120.50 ± 0.00', '—'],
    ]);
  });
});
