import { describe, expect, it } from 'vitest';
import { formatCount, formatTick, formatValue } from './format';

describe('plot number text', () => {
  it('separates thousands in counts', () => {
    expect(formatCount(252690)).toBe('252,690');
    expect(formatCount(1_000_000)).toBe('1,000,000');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(0)).toBe('0');
  });

  it('writes large ticks with a suffix, short enough not to be clipped', () => {
    expect(formatTick(1e6)).toBe('1M');
    expect(formatTick(250_000)).toBe('250k');
    expect(formatTick(1_500_000)).toBe('1.5M');
    expect(formatTick(12_000)).toBe('12k');
    expect(formatTick(2e9)).toBe('2G');
    expect(formatTick(-20_000)).toBe('-20k');
  });

  it('keeps small ticks and values as before', () => {
    expect(formatTick(1000)).toBe('1000');
    expect(formatTick(0.25)).toBe('0.25');
    expect(formatTick(0.0001)).toBe('1.0e-4');
    expect(formatValue(123456)).toBe('1.23e+5');
  });
});
