import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig, diffConfigs, PRESETS } from '../config';
import { planQueue, queueRunConfig, variantOwnOverrides } from './queue-plan';

describe('studio queue plan', () => {
  // A studio config: the tiny preset plus a hand-set actor lr, on lift.
  const studio = applyOverrides(defaultConfig(), [...PRESETS.tiny.overrides, 'task=lift', 'actor_lr=7e-5']);

  it('keeps what the studio changed, fills the rest from the baseline, and lets the variant win', () => {
    const config = queueRunConfig(studio, 'reinflow-ablation', 'lr:high', 3);
    // The studio changed these from the defaults: they stay.
    expect(config.num_envs).toBe(4);
    expect(config.iterations).toBe(3);
    expect(config.task).toBe('lift');
    // Left at their defaults in the studio: the ReinFlow baseline's values.
    expect(config.noise.method).toBe('noise');
    expect(config.noise.std_max).toBe(0.3);
    // The variant's own keys win over the studio's actor_lr=7e-5.
    expect(config.actor_lr).toBe(1e-4);
    expect(config.critic_lr).toBe(3e-4);
    expect(config.seed).toBe(3);
    const baseline = queueRunConfig(studio, 'reinflow-ablation', 'baseline', 3);
    expect(baseline.actor_lr).toBe(7e-5);
    expect(diffConfigs([baseline, config]).map((row) => row.key)).toEqual(['actor_lr', 'critic_lr']);
  });

  it('lists variant × seed in order and names an unknown variant or preset', () => {
    const items = planQueue({ preset: 'reinflow-ablation', variants: ['ppo:clip_loose', 'ppo:clip_tight'], seeds: [0, 1] }, studio);
    // planSweep's order is the preset's: clip_tight comes before clip_loose there.
    expect(items.map((item) => `${item.variant}/${item.seed}`)).toEqual(['ppo:clip_tight/0', 'ppo:clip_tight/1', 'ppo:clip_loose/0', 'ppo:clip_loose/1']);
    expect(items[2].config.ppo.clip_low).toBe(0.015);
    expect(variantOwnOverrides('reinflow-ablation', 'ppo:clip_tight')).toEqual(['ppo.clip_low=0.005', 'ppo.clip_high=0.005']);
    expect(() => planQueue({ preset: 'reinflow-ablation', variants: ['ppo:nope'], seeds: [0] }, studio)).toThrow(/'ppo:nope' is not a variant/);
    expect(() => planQueue({ preset: 'grid', variants: [], seeds: [0] }, studio)).toThrow(/unknown sweep preset 'grid'; known: reinflow-ablation/);
    expect(() => planQueue({ preset: 'reinflow-ablation', variants: ['baseline'], seeds: [1, 1] }, studio)).toThrow(/seeds repeat/);
  });
});

describe('config diff of several runs', () => {
  it('lists the keys any run differs on, formatted as overrides, and nothing for one run', () => {
    const a = defaultConfig();
    const b = applyOverrides(a, ['actor_lr=1e-4', 'policy.hidden=64,64']);
    const c = applyOverrides(a, ['actor_lr=1e-4']);
    const rows = diffConfigs([a, b, c]);
    expect(rows.map((row) => row.key)).toEqual(['actor_lr', 'policy.hidden']);
    expect(rows[0].values[1]).toBe('0.0001');
    expect(rows[1].values[1]).toBe('64,64');
    expect(rows[1].values[0]).toBe(rows[1].values[2]);
    expect(diffConfigs([a])).toEqual([]);
    expect(diffConfigs([a, defaultConfig()])).toEqual([]);
  });
});
