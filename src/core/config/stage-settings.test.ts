import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { ConfigError } from '../errors';
import { applyOverrides } from './overrides';
import { stageEvalOff, withStageSettings } from './stage-settings';
import { validateConfig } from './validate';

describe('withStageSettings', () => {
  it("sets the stage's fields and eval_episodes and leaves every other field as it was", () => {
    const base = defaultConfig();
    const config = withStageSettings(base, 'pretrain', { 'pretrain.steps': 30, 'pretrain.eval_every': 15, eval_episodes: 0 });
    expect(config.pretrain).toEqual({ ...base.pretrain, steps: 30, eval_every: 15 });
    expect(config.eval_episodes).toBe(0);
    // eval_episodes=0 with the PPO run's eval.every: a stage's form sets it alone, so no cross-field rule applies here.
    expect(config.eval.every).toBe(base.eval.every);
    expect(base.pretrain.steps).toBe(3000);
  });

  it("refuses another section's key or a bad value in one sentence naming the key", () => {
    expect(() => withStageSettings(defaultConfig(), 'offline', { 'pretrain.steps': 30 }))
      .toThrow('pretrain.steps is not a setting of stage 2; it takes offline.* fields and eval_episodes');
    expect(() => withStageSettings(defaultConfig(), 'offline', { 'offline.beta': 0 }))
      .toThrow('offline.beta must be a number in [0.001, 1000] (got 0)');
    expect(() => withStageSettings(defaultConfig(), 'pretrain', { 'pretrain.steps': 2.5 })).toThrow(ConfigError);
    expect(() => withStageSettings(defaultConfig(), 'pretrain', { 'pretrain.nope': 1 } as never)).toThrow("unknown config key 'pretrain.nope'");
  });
});

describe('stageEvalOff', () => {
  it("turns the PPO loop's eval.every and eval.record_episodes off with a given eval_episodes=0, unless they were given too", () => {
    const zero = applyOverrides(defaultConfig(), ['eval_episodes=0']);
    // Defaults eval.every=10 and eval.record_episodes=2 would break the rules that tie them to eval_episodes.
    expect(() => validateConfig(zero)).toThrow('eval_episodes is 0 but eval.every is 10; set eval_episodes ≥ 1 or eval.every=0');
    const off = stageEvalOff(zero, ['eval_episodes']);
    expect([off.eval.every, off.eval.record_episodes]).toEqual([0, 0]);
    expect(() => validateConfig(off)).not.toThrow();
    // A key the command line gave is kept, and still refused when it contradicts eval_episodes=0.
    const kept = stageEvalOff(applyOverrides(zero, ['eval.every=5']), ['eval_episodes', 'eval.every']);
    expect([kept.eval.every, kept.eval.record_episodes]).toEqual([5, 0]);
    expect(() => validateConfig(kept)).toThrow('eval_episodes is 0 but eval.every is 5');
    // Evaluations asked for, or eval_episodes left at its default: nothing changes.
    expect(stageEvalOff(defaultConfig(), ['eval_episodes'])).toEqual(defaultConfig());
    expect(stageEvalOff(zero, [])).toBe(zero);
  });
});
