import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from './fields';
import { describeConfigField, formatConfigHelp } from './help';

describe('config help', () => {
  it('describes a field with its allowed values, default and doc', () => {
    expect(describeConfigField('ppo.clip_low')).toMatch(/^ppo\.clip_low: a number in \(0, 1\), default 0\.2\. ε_low/);
    expect(describeConfigField('policy.hidden')).toContain('default 256,256,256.');
    expect(describeConfigField('noise.method')).toContain('one of ode, sde, cps, noise, default sde.');
  });

  it('lists every field once', () => {
    const lines = formatConfigHelp().split('\n');
    expect(lines).toHaveLength(CONFIG_KEYS.length);
    expect(lines.map((line) => line.trim().split(':')[0])).toEqual(CONFIG_KEYS);
  });
});
