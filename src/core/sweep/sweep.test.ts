import { describe, expect, it } from 'vitest';
import { PRESETS } from '../config/presets';
import { dryRunLines, planSweep, sweepRunId } from './sweep-plan';
import { SWEEP_PRESETS } from './sweep-presets';
import { formatSweepSummary, summarizeSweep, type SweepRunResult } from './sweep-summary';

describe('sweep plan', () => {
  it('reinflow-ablation has reference 003\'s 22 variants under its names, each a preset', () => {
    const names = SWEEP_PRESETS['reinflow-ablation'].variants.map((variant) => variant.name);
    expect(names).toEqual([
      'baseline', 'warmup:0', 'warmup:2k', 'warmup:10k', 'noise:constant', 'noise:exp', 'noise:fast', 'noise:low_init', 'noise:high_init',
      'ppo:clip_tight', 'ppo:clip_loose', 'ppo:high_entropy', 'ppo:low_entropy', 'ppo:high_value', 'lr:low', 'lr:high', 'lr:equal',
      'infer:4steps', 'infer:16steps', 'rollout:short', 'rollout:long', 'rollout:more_epochs',
    ]);
    for (const variant of SWEEP_PRESETS['reinflow-ablation'].variants) expect(PRESETS[variant.preset]).toBeDefined();
  });

  it('expands variants × seeds; base overrides apply to every run, a variant\'s own keys win', () => {
    const plan = planSweep({ preset: 'reinflow-ablation', task: 'pick-cube', seeds: [0, 1, 2], base: ['iterations=2', 'ppo.critic_warmup_steps=100'] });
    expect(plan.runs).toHaveLength(66);
    const warmup = plan.runs.find((run) => run.id === 'warmup-0-s1')!;
    expect(warmup.variant).toBe('warmup:0');
    expect(warmup.overrides.slice(-4)).toEqual(['seed=1', 'iterations=2', 'ppo.critic_warmup_steps=100', 'ppo.critic_warmup_steps=0']);
    expect(warmup.overrides).toContain('task=pick-cube');
    const baseline = plan.runs.find((run) => run.id === 'baseline-s0')!;
    expect(baseline.overrides.at(-1)).toBe('ppo.critic_warmup_steps=100');
    // The three warm-up variants vary the key the base sets, and say so.
    expect(plan.notes).toEqual(['warmup:0', 'warmup:2k', 'warmup:10k'].map((name) => `${name} varies ppo.critic_warmup_steps, so ppo.critic_warmup_steps=100 does not apply to its runs`));
  });

  it('picks a subset, one dry-run line per run, and names an unknown variant', () => {
    const plan = planSweep({ preset: 'reinflow-ablation', task: 'lift', seeds: [4], configs: ['lr:low', 'baseline'] });
    expect(plan.runs.map((run) => run.id)).toEqual(['baseline-s4', 'lr-low-s4']);
    const lines = dryRunLines(plan);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^lr:low\tseed 4\t.*actor_lr=1e-5 critic_lr=3e-5$/);
    expect(() => planSweep({ preset: 'reinflow-ablation', task: 'lift', seeds: [0], configs: ['lr:huge'] })).toThrow(/'lr:huge' is not a variant of reinflow-ablation/);
    expect(() => planSweep({ preset: 'reinflow-ablation', task: 'lift', seeds: [] })).toThrow(/seeds must be/);
    expect(sweepRunId('noise:low_init', 2)).toBe('noise-low_init-s2');
  });
});

describe('sweep summary', () => {
  const result = (variant: string, seed: number, successRate: number, wallSeconds = 600): SweepRunResult =>
    ({ id: sweepRunId(variant, seed), variant, seed, successRate, meanReturn: -10, envSteps: 1000, wallSeconds });

  it('mean ± sample std per variant, and the difference from the baseline', () => {
    const plan = { preset: 'reinflow-ablation', task: 'pick-cube', variants: ['baseline', 'lr:low', 'lr:high'], runs: new Array(6) };
    const summary = summarizeSweep(plan, [result('baseline', 0, 0.8), result('baseline', 1, 0.9), result('lr:low', 0, 0.5), result('lr:low', 1, 0.7, 900)], { episodes: 100, seed: 2_000_000 });
    // lr:high has no finished run: no row.
    expect(summary.variants.map((variant) => variant.variant)).toEqual(['baseline', 'lr:low']);
    // baseline: mean 0.85, std √((0.05² + 0.05²)/1) = 0.070711; lr:low: mean 0.6, std 0.141421; 0.6 − 0.85 = −0.25.
    expect(summary.variants[0].success!.mean).toBeCloseTo(0.85, 12);
    expect(summary.variants[0].success!.std).toBeCloseTo(0.0707107, 6);
    expect(summary.variants[1].success!.std).toBeCloseTo(0.1414214, 6);
    expect(summary.variants[1].vsBaseline).toBeCloseTo(-0.25, 12);
    expect(summary.variants[0].vsBaseline).toBeNull();
    const markdown = formatSweepSummary(summary);
    expect(markdown).toContain('4 of 6 runs finished');
    expect(markdown).toContain('| lr:low | 0, 1 | 60.0% ± 14.1% | −25.0 pts | 1,000 | 12.5 min |');
  });
});
