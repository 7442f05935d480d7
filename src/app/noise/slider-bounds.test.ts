import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig, fieldRange, inNumericRange, validateConfig, type NumericRange } from '../../core/config';
import { sliderBounds } from './slider-bounds';

const range = (min: number, max: number, minExclusive = false, maxExclusive = false): NumericRange =>
  ({ min, max, minExclusive, maxExclusive, integer: false });

/** Every position of a range input with these bounds. */
function positions(bounds: { min: number; max: number; step: number }): number[] {
  const count = Math.round((bounds.max - bounds.min) / bounds.step);
  return Array.from({ length: count + 1 }, (_, index) => Number((bounds.min + index * bounds.step).toFixed(6)));
}

describe('sliderBounds', () => {
  it('starts one step above an exclusive minimum and on it when inclusive', () => {
    expect(sliderBounds(range(0, 5, true), 0.01)).toEqual({ min: 0.01, max: 5, step: 0.01 });
    expect(sliderBounds(range(0, 5), 0.01)).toEqual({ min: 0, max: 5, step: 0.01 });
    expect(sliderBounds(range(0, 0.16, true), 0.001)).toEqual({ min: 0.001, max: 0.16, step: 0.001 });
  });

  it('rounds inward to the step grid and stops below an exclusive maximum or a display limit', () => {
    expect(sliderBounds(range(0.105, 0.987), 0.01)).toEqual({ min: 0.11, max: 0.98, step: 0.01 });
    expect(sliderBounds(range(0, 1, false, true), 0.01)).toEqual({ min: 0, max: 0.99, step: 0.01 });
    expect(sliderBounds({ min: 1, max: 1e12, minExclusive: false, maxExclusive: false, integer: true }, 5000, 123_456))
      .toEqual({ min: 5000, max: 120_000, step: 5000 });
  });

  it('offers only levels validation accepts, for sde and cps with and without a decay', () => {
    const configs = [
      ['noise.method=sde'], ['noise.method=cps'],
      ['noise.method=sde', 'noise.decay=linear', 'noise.level_min=0.1'],
      ['noise.method=cps', 'noise.decay=cosine', 'noise.level=0.9', 'noise.level_min=0.25'],
    ].map((overrides) => validateConfig(applyOverrides(defaultConfig(), overrides)));
    for (const config of configs) {
      const allowed = fieldRange('noise.level', config);
      const bounds = sliderBounds(allowed, 0.01);
      expect(bounds.min).toBeGreaterThan(0);
      for (const level of positions(bounds)) {
        expect(inNumericRange(allowed, level), `${config.noise.method} level ${level}`).toBe(true);
        expect(() => validateConfig({ ...config, noise: { ...config.noise, level } })).not.toThrow();
      }
    }
  });
});
