import { describe, expect, it } from 'vitest';
import { defaultConfig, setField } from './access';
import { describeFieldAllowed, fieldRange, isNumericKey, type NumericKey } from './field-range';
import { CONFIG_KEYS } from './fields';
import { formatInterval, inNumericRange, type NumericRange } from './numeric-range';
import { applyOverrides } from './overrides';
import { rangeRuleProblems } from './range-rules';
import type { RunConfig } from './run-config';
import { listConfigProblems, validateConfig } from './validate';

const withOverrides = (...overrides: string[]): RunConfig => validateConfig(applyOverrides(defaultConfig(), overrides));
const interval = (key: NumericKey, config: RunConfig) => formatInterval(fieldRange(key, config));

describe('fieldRange', () => {
  it('gives noise.level the range the method needs: sde a > 0, cps 0 < a ≤ 1, the table\'s for methods that ignore a', () => {
    expect(interval('noise.level', withOverrides('noise.method=sde'))).toBe('(0, 5]');
    expect(interval('noise.level', withOverrides('noise.method=cps', 'noise.level=0.5'))).toBe('(0, 1]');
    expect(interval('noise.level', withOverrides('noise.method=noise'))).toBe('[0, 5]');
    expect(interval('noise.level', withOverrides('noise.method=ode'))).toBe('[0, 5]');
  });

  it('bounds level and level_min by each other and by the method while a decay runs, and not under a constant one', () => {
    const decaying = withOverrides('noise.method=sde', 'noise.decay=linear', 'noise.level=0.5', 'noise.level_min=0.1');
    expect(interval('noise.level', decaying)).toBe('[0.1, 5]');
    expect(interval('noise.level_min', decaying)).toBe('(0, 0.5]');
    const cps = withOverrides('noise.method=cps', 'noise.decay=cosine', 'noise.level=0.8', 'noise.level_min=0.2');
    expect(interval('noise.level', cps)).toBe('[0.2, 1]');
    expect(interval('noise.level_min', cps)).toBe('(0, 0.8]');
    const constant = withOverrides('noise.method=sde', 'noise.level=0.5', 'noise.level_min=0.1');
    expect(interval('noise.level', constant)).toBe('(0, 5]');
    expect(interval('noise.level_min', constant)).toBe('[0, 5]');
  });

  it('keeps σ_min ≤ σ_max from both sides and asks for decay steps only with a decay', () => {
    const config = withOverrides('noise.std_min=0.08', 'noise.std_max=0.16');
    expect(interval('noise.std_min', config)).toBe('(0, 0.16]');
    expect(interval('noise.std_max', config)).toBe('[0.08, 2]');
    expect(interval('noise.decay_steps', withOverrides('noise.decay=constant'))).toBe('[0, 1000000000000]');
    expect(interval('noise.decay_steps', withOverrides('noise.decay=exponential'))).toBe('[1, 1000000000000]');
  });

  it('carries the other cross-field ranges: cps needs K ≥ 2, n_action_steps ≤ horizon, n-step within a rollout, recorded ≤ evaluated', () => {
    expect(fieldRange('policy.denoise_steps', withOverrides('noise.method=cps'))).toEqual({ min: 2, max: 128, minExclusive: false, maxExclusive: false, integer: true });
    expect(interval('policy.denoise_steps', withOverrides('noise.method=sde'))).toBe('[1, 128]');
    const shapes = withOverrides('policy.horizon=8', 'policy.n_action_steps=4');
    expect(interval('policy.n_action_steps', shapes)).toBe('[1, 8]');
    expect(interval('policy.horizon', shapes)).toBe('[4, 128]');
    expect(interval('advantages.n_steps', withOverrides('advantages.type=nstep', 'env.steps_per_iteration=32'))).toBe('[1, 32]');
    expect(interval('advantages.n_steps', withOverrides('advantages.type=gae'))).toBe('[1, 100000]');
    expect(interval('eval.record_episodes', withOverrides('eval_episodes=3', 'eval.record_episodes=1'))).toBe('[0, 3]');
    expect(interval('eval_episodes', withOverrides('eval_episodes=3', 'eval.record_episodes=1', 'eval.every=5'))).toBe('[1, 100000]');
    expect(interval('ppo.weight_decay', withOverrides('ppo.optimizer=adam'))).toBe('[0, 0]');
  });

  it('words the allowed values for the Config tab from the same range', () => {
    expect(describeFieldAllowed('noise.level', withOverrides('noise.method=cps', 'noise.level=0.5'))).toBe('a number in (0, 1]');
    expect(describeFieldAllowed('policy.denoise_steps', withOverrides('noise.method=cps'))).toBe('an integer in [2, 128]');
    expect(describeFieldAllowed('noise.method', defaultConfig())).toBe('one of ode, sde, cps, noise');
  });

  it('agrees with validation for every numeric field: inside its range no range rule objects, just outside validation refuses', () => {
    const bases = [
      defaultConfig(),
      withOverrides('noise.method=cps', 'noise.decay=linear', 'noise.level=0.6', 'noise.level_min=0.2', 'advantages.type=nstep', 'ppo.optimizer=adamw'),
      withOverrides('noise.method=noise', 'noise.decay=cosine', 'iterations=50', 'total_env_steps=0', 'eval.every=0', 'eval_episodes=0', 'eval.record_episodes=0'),
    ];
    const numericKeys = CONFIG_KEYS.filter(isNumericKey);
    expect(numericKeys.length).toBeGreaterThan(40);
    for (const base of bases) {
      for (const key of numericKeys) {
        const range = fieldRange(key, base);
        const where = `${key} in ${formatInterval(range)} (${base.noise.method}, ${base.noise.decay})`;
        for (const value of insideValues(range)) {
          expect(rangeRuleProblems(setField(base, key, value as never)), `${where}: ${value}`).toEqual([]);
        }
        for (const value of outsideValues(range)) {
          expect(listConfigProblems(setField(base, key, value as never)).length, `${where}: ${value}`).toBeGreaterThan(0);
        }
      }
    }
  });
});

/** The range's ends where allowed, and a value between. */
function insideValues(range: NumericRange): number[] {
  const unit = range.integer ? 1 : 1e-6;
  const low = range.minExclusive ? range.min + unit : range.min;
  const high = range.maxExclusive ? range.max - unit : range.max;
  const middle = range.integer ? Math.floor((low + high) / 2) : (low + high) / 2;
  return [low, middle, high].filter((value) => inNumericRange(range, value));
}

/** The nearest values just outside each end. */
function outsideValues(range: NumericRange): number[] {
  const unit = range.integer ? 1 : 1e-6;
  return [range.minExclusive ? range.min : range.min - unit, range.maxExclusive ? range.max : range.max + unit];
}
