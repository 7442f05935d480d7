import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { ConfigError } from '../errors';
import { withStageSettings } from './stage-settings';

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
