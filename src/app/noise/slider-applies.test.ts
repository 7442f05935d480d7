import { describe, expect, it } from 'vitest';
import { noiseSliderIdleReason, type NoiseSliderField } from './slider-applies';

const FIELDS: NoiseSliderField[] = ['level', 'std_min', 'std_max', 'decay_steps'];

function acting(method: 'ode' | 'sde' | 'cps' | 'noise', decay: 'constant' | 'linear'): NoiseSliderField[] {
  return FIELDS.filter((field) => noiseSliderIdleReason(field, { method, decay }) === undefined);
}

describe('noiseSliderIdleReason', () => {
  it('leaves level a live for sde and cps, and the σ bounds for the noise head only', () => {
    expect(acting('sde', 'linear')).toEqual(['level', 'decay_steps']);
    expect(acting('cps', 'linear')).toEqual(['level', 'decay_steps']);
    expect(acting('noise', 'linear')).toEqual(['std_min', 'std_max', 'decay_steps']);
  });

  it('disables every slider for ode, and decay steps with a constant decay', () => {
    expect(acting('ode', 'linear')).toEqual([]);
    expect(acting('sde', 'constant')).toEqual(['level']);
    expect(noiseSliderIdleReason('decay_steps', { method: 'sde', decay: 'constant' })).toBe('decay is constant');
  });

  it('says which control acts instead', () => {
    expect(noiseSliderIdleReason('std_min', { method: 'sde', decay: 'constant' })).toBe('only the noise head (method noise) uses σ bounds; sde uses level a');
    expect(noiseSliderIdleReason('level', { method: 'noise', decay: 'constant' })).toMatch(/σ min and σ max/);
  });
});
