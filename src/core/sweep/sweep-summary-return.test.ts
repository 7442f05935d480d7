import { describe, expect, it } from 'vitest';
import { sweepRunId } from './sweep-plan';
import { formatSweepSummary, summarizeSweep, type SweepRunResult } from './sweep-summary';
import { parseSweepSummaryJson } from './sweep-summary-json';

describe('sweep summary of a task without a success rule (DESIGN.md §13)', () => {
  const result = (variant: string, seed: number, meanReturn: number, successRate: number | null = null): SweepRunResult =>
    ({ id: sweepRunId(variant, seed), variant, seed, successRate, meanReturn, envSteps: 2000, wallSeconds: 120 });
  const plan = { preset: 'reinflow-ablation', task: 'pendulum-swingup', variants: ['baseline', 'lr:low', 'lr:high', 'noise:exp'], runs: new Array(8) };
  const results = [
    result('baseline', 0, -150), result('baseline', 1, -130),
    result('lr:low', 0, -210), result('lr:low', 1, -190),
    result('lr:high', 0, 40), result('lr:high', 1, 60),
    result('noise:exp', 1, -140),
  ];

  it('ranks variants best first by final mean return, with its spread over seeds and the difference from the baseline', () => {
    const summary = summarizeSweep(plan, results, { episodes: 10, seed: 2_000_000 });
    expect(summary.rankedBy).toBe('return');
    // Means: lr:high 50, baseline -140, noise:exp -140 (ties keep plan order), lr:low -200.
    expect(summary.variants.map((variant) => variant.variant)).toEqual(['lr:high', 'baseline', 'noise:exp', 'lr:low']);
    const [best, baseline, , worst] = summary.variants;
    expect(best.success).toBeNull();
    // lr:high: 40 and 60, mean 50, sample std √((10² + 10²) / 1) = 14.142.
    expect(best.return!.mean).toBe(50);
    expect(best.return!.std).toBeCloseTo(14.1421356, 6);
    expect([best.return!.min, best.return!.max]).toEqual([40, 60]);
    expect(best.vsBaseline).toBe(190);
    expect(worst.vsBaseline).toBe(-60);
    expect(baseline.vsBaseline).toBeNull();
    const markdown = formatSweepSummary(summary);
    expect(markdown.split('\n')).toEqual([
      '# reinflow-ablation on pendulum-swingup',
      '',
      '7 of 8 runs finished. The task has no success rule, so variants are ranked by final mean return (best first) of the deterministic policy on 10 episodes from reset seed 2000000, the same for every run.',
      '',
      '| rank | variant | seeds | return mean ± std | vs baseline | env steps | wall-clock per run |',
      '|---|---|---|---|---|---|---|',
      '| 1 | lr:high | 0, 1 | 50.00 ± 14.14 | +190.00 | 2,000 | 2.0 min |',
      '| 2 | baseline | 0, 1 | -140.00 ± 14.14 | — | 2,000 | 2.0 min |',
      '| 3 | noise:exp | 1 | -140.00 ± 0.00 | +0.00 | 2,000 | 2.0 min |',
      '| 4 | lr:low | 0, 1 | -200.00 ± 14.14 | −60.00 | 2,000 | 2.0 min |',
      '',
    ]);
    expect(markdown).not.toMatch(/success mean|%/);
  });

  it('summary.json says what ranks the variants and reads back', () => {
    const summary = summarizeSweep(plan, results, { episodes: 10, seed: 2_000_000 });
    const json = JSON.parse(JSON.stringify({ ...summary, runs: results }));
    expect(json.rankedBy).toBe('return');
    expect(json.variants[0]).toMatchObject({ variant: 'lr:high', success: null, return: { mean: 50 } });
    expect(json.runs[0].successRate).toBeNull();
    expect(parseSweepSummaryJson(json)).toEqual({ ...summary, runs: results });
    // A return summary without its return spread is refused, naming the field.
    const broken = { ...json, variants: [{ ...json.variants[0], return: undefined }] };
    expect(() => parseSweepSummaryJson(broken)).toThrow(/variants\[0\]\.return must be/);
  });

  it('says it ranks by return before any run finished, when the task is known to have no success rule', () => {
    const summary = summarizeSweep(plan, [], { episodes: 10, seed: 2_000_000 }, { measure: 'return' });
    expect(summary.rankedBy).toBe('return');
    expect(formatSweepSummary(summary)).toContain('0 of 8 runs finished. The task has no success rule, so variants are ranked by final mean return');
  });

  it('a task with success keeps its summary as it was: plan order, success spread, no return or rankedBy keys', () => {
    const withSuccess = [result('baseline', 0, -5, 0.5), result('lr:low', 0, 10, 0.25)];
    const summary = summarizeSweep({ ...plan, task: 'reach' }, withSuccess, { episodes: 10, seed: 2_000_000 });
    expect(Object.keys(summary)).toEqual(['preset', 'task', 'evalEpisodes', 'evalSeed', 'finishedRuns', 'plannedRuns', 'variants']);
    expect(Object.keys(summary.variants[0])).toEqual(['variant', 'seeds', 'success', 'envSteps', 'wallSeconds', 'vsBaseline']);
    expect(summary.variants.map((variant) => variant.variant)).toEqual(['baseline', 'lr:low']);
    expect(formatSweepSummary(summary)).toContain('| lr:low | 0 | 25.0% ± 0.0% | −25.0 pts | 2,000 | 2.0 min |');
  });
});
