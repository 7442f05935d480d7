import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors';
import { defaultConfig } from './access';
import { formatFieldValue, parseFieldValue } from './field-values';
import { applyOverrides, editDistance, parseOverride, suggestKeys } from './overrides';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('applyOverrides', () => {
  it('parses each field kind', () => {
    const config = applyOverrides(defaultConfig(), [
      'num_envs=32', // int
      'ppo.clip_low=0.1', // number
      'actor_lr=1e-4', // number in exponent form
      'noise.method=cps', // enum
      'advantages.normalize=false', // bool
      'policy.hidden=64,64', // int-list
      'total_env_steps=2_000_000', // int with separators
    ]);
    expect(config.num_envs).toBe(32);
    expect(config.ppo.clip_low).toBe(0.1);
    expect(config.actor_lr).toBe(1e-4);
    expect(config.noise.method).toBe('cps');
    expect(config.advantages.normalize).toBe(false);
    expect(config.policy.hidden).toEqual([64, 64]);
    expect(config.total_env_steps).toBe(2_000_000);
  });

  it('accepts bool spellings and bracketed lists, and the last override wins', () => {
    expect(parseFieldValue('env.auto_reset', 'YES')).toBe(true);
    expect(parseFieldValue('env.auto_reset', '0')).toBe(false);
    expect(parseFieldValue('policy.hidden', '[32, 16]')).toEqual([32, 16]);
    expect(applyOverrides(defaultConfig(), ['seed=1', 'seed=2']).seed).toBe(2);
  });

  it('does not mutate the input config', () => {
    const base = defaultConfig();
    applyOverrides(base, ['policy.hidden=8', 'ppo.epochs=9']);
    expect(base).toEqual(defaultConfig());
  });

  it('rejects unknown keys with the closest allowed keys', () => {
    const typo = configError(() => applyOverrides(defaultConfig(), ['ppo.clip_lwo=0.1']));
    expect(typo.field).toBe('ppo.clip_lwo');
    expect(typo.message).toMatch(/^unknown config key 'ppo\.clip_lwo'; did you mean ppo\.clip_low/);
    // A bare leaf name finds its section.
    expect(configError(() => applyOverrides(defaultConfig(), ['clip_low=0.1'])).message).toContain('did you mean ppo.clip_low');
    expect(suggestKeys('num_env')[0]).toBe('num_envs');
    // The stages' own lr fields end in the very leaf, so they rank first; then the keys containing it.
    expect(suggestKeys('lr')).toEqual(['pretrain.lr', 'offline.lr', 'actor_lr']);
    expect(suggestKeys('lr', 5)).toEqual(['pretrain.lr', 'offline.lr', 'actor_lr', 'critic_lr', 'ppo.lr_schedule']);
    expect(suggestKeys('noise.std')).toEqual(expect.arrayContaining(['noise.std_min', 'noise.std_max']));
    const far = configError(() => parseOverride('zzzzzzzzzzzz=1'));
    expect(far.message).toContain('allowed keys start with one of: task, accept_task_version, seed');
    expect(far.message).toContain('ppo.');
  });

  it('rejects malformed overrides', () => {
    expect(configError(() => applyOverrides(defaultConfig(), ['ppo.epochs'])).message)
      .toBe("malformed override 'ppo.epochs'; expected key=value, e.g. ppo.clip_low=0.1");
    expect(configError(() => parseOverride('=3')).message).toContain("malformed override '=3'");
  });

  it('rejects bad values, naming the key and the allowed values or range', () => {
    const cases: Array<[string, string]> = [
      ['noise.method=flow', "noise.method must be one of ode, sde, cps, noise (got 'flow')"],
      ['num_envs=0', "num_envs must be an integer in [1, 4096] (got '0')"],
      ['num_envs=2.5', "num_envs must be an integer in [1, 4096] (got '2.5')"],
      ['ppo.clip_low=1', "ppo.clip_low must be a number in (0, 1) (got '1')"],
      ['ppo.clip_low=abc', "ppo.clip_low must be a number in (0, 1) (got 'abc')"],
      ['advantages.gamma=', "advantages.gamma must be a number in [0, 1] (got '')"],
      ['actor_lr=NaN', "actor_lr must be a number in [0, 1] (got 'NaN')"],
      ['advantages.normalize=maybe', "advantages.normalize must be one of true, false (got 'maybe')"],
      ['policy.hidden=32,x', "policy.hidden must be a comma-separated list of 1–8 integers in [1, 8192] (got '32,x')"],
      ['policy.hidden=', "policy.hidden must be a comma-separated list of 1–8 integers in [1, 8192] (got '')"],
      ['policy.hidden=0,32', "policy.hidden must be a comma-separated list of 1–8 integers in [1, 8192] (got '0,32')"],
    ];
    for (const [override, message] of cases) {
      const error = configError(() => applyOverrides(defaultConfig(), [override]));
      expect(error.message, override).toBe(message);
      expect(error.field, override).toBe(override.slice(0, override.indexOf('=')));
    }
  });

  it('refuses hex, binary and octal numbers and values a 64-bit float cannot hold, saying why', () => {
    const cases: Array<[string, string]> = [
      ['iterations=0x10', "iterations must be an integer in [0, 10000000] (got '0x10', which is not written in decimal digits)"],
      ['num_envs=0b11', "num_envs must be an integer in [1, 4096] (got '0b11', which is not written in decimal digits)"],
      ['seed=0o17', "seed must be an integer in [0, 2147483647] (got '0o17', which is not written in decimal digits)"],
      ['actor_lr=1e-400', "actor_lr must be a number in [0, 1] (got '1e-400', which is too small for a 64-bit float and would read as 0)"],
      ['total_env_steps=1e400', "total_env_steps must be an integer in [0, 1000000000000] (got '1e400', which is too large for a 64-bit float)"],
      ['policy.hidden=0x20,32', "policy.hidden must be a comma-separated list of 1–8 integers in [1, 8192] (got '0x20,32', which is not written in decimal digits)"],
    ];
    for (const [override, message] of cases) {
      const error = configError(() => applyOverrides(defaultConfig(), [override]));
      expect(error.message, override).toBe(message);
      expect(error.field, override).toBe(override.slice(0, override.indexOf('=')));
    }
    // Zero written out, decimals, exponents, signs and digit groups still read.
    const config = applyOverrides(defaultConfig(), ['actor_lr=0e-5', 'critic_lr=.5e-3', 'iterations=1_000', 'noise.level=+0.25', 'policy.hidden=64, 1e2']);
    expect([config.actor_lr, config.critic_lr, config.iterations, config.noise.level, config.policy.hidden]).toEqual([0, 5e-4, 1000, 0.25, [64, 100]]);
  });

  it('formats values so that parsing gives them back exactly', () => {
    for (const value of [0.1, 1 / 3, 3e-5, 1e-7 * Math.PI, 0.30000000000000004]) {
      expect(parseFieldValue('noise.level', formatFieldValue(value))).toBe(value);
    }
    expect(parseFieldValue('policy.hidden', formatFieldValue([1, 2, 3]))).toEqual([1, 2, 3]);
  });

  it('computes edit distance', () => {
    // kitten → sitting: substitute k→s, e→i, insert g = 3.
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
