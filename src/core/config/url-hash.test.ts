import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors';
import { createRng, type Rng } from '../random';
import { defaultConfig, setField } from './access';
import { diffConfig } from './diff';
import { CONFIG_KEYS, fieldSpec } from './fields';
import { configFromJson } from './json';
import { applyOverrides } from './overrides';
import type { ConfigKey, ConfigValue, RunConfig } from './run-config';
import { decodeConfigHash, encodeConfigHash } from './url-hash';
import { listConfigProblems } from './validate';
import { taskNames } from '../envs/task-registry';

/** A random in-bounds value; wide ranges are sampled on a log scale so small values occur too. */
function randomValue(rng: Rng, key: ConfigKey): ConfigValue<ConfigKey> {
  const spec = fieldSpec(key);
  switch (spec.kind) {
    case 'enum':
      return spec.values[rng.int(spec.values.length)] as ConfigValue<ConfigKey>;
    case 'bool':
      return rng.uniform() < 0.5;
    case 'int': {
      const span = Math.min(spec.max - spec.min, 10 ** (1 + rng.int(6)));
      return spec.min + rng.int(span + 1);
    }
    case 'number': {
      const low = spec.min;
      const high = Math.min(spec.max, low + 10 ** (rng.int(4) - 2));
      const value = low + (high - low) * rng.uniform();
      return value === low && spec.minExclusive ? (low + high) / 2 : value;
    }
    case 'int-list': {
      const length = spec.minLength + rng.int(spec.maxLength - spec.minLength + 1);
      return Array.from({ length }, () => spec.min + rng.int(Math.min(spec.max - spec.min, 512) + 1));
    }
    case 'name':
      // A registered task, or the field's default (a control name is 'default' or one the task has).
      return (key === 'task' ? taskNames()[rng.int(taskNames().length)] : spec.default) as ConfigValue<ConfigKey>;
  }
}

/** A valid config with 1–12 random fields changed (rejection sampling on validity). */
function randomValidConfig(rng: Rng): RunConfig {
  for (;;) {
    let config = defaultConfig();
    const changes = 1 + rng.int(12);
    for (let change = 0; change < changes; change++) {
      const key = CONFIG_KEYS[rng.int(CONFIG_KEYS.length)];
      config = setField(config, key, randomValue(rng, key));
    }
    if (listConfigProblems(config).length === 0) return config;
  }
}

describe('URL hash', () => {
  it('is empty for the defaults and lists only changed fields', () => {
    expect(encodeConfigHash(defaultConfig())).toBe('');
    const config = applyOverrides(defaultConfig(), ['ppo.clip_low=0.1', 'policy.hidden=32,32', 'noise.method=cps']);
    expect(encodeConfigHash(config)).toBe('policy.hidden=32%2C32&noise.method=cps&ppo.clip_low=0.1');
    expect(decodeConfigHash('#policy.hidden=32%2C32&noise.method=cps&ppo.clip_low=0.1')).toEqual(config);
    expect(decodeConfigHash('')).toEqual(defaultConfig());
  });

  it('round-trips random valid configs exactly', () => {
    const seed = Date.now() % 1_000_000;
    const rng = createRng(seed);
    for (let trial = 0; trial < 200; trial++) {
      const config = randomValidConfig(rng);
      const hash = encodeConfigHash(config);
      expect(decodeConfigHash(`#${hash}`), `seed ${seed} trial ${trial}: ${hash}`).toEqual(config);
    }
  });

  it('rejects bad hashes with ConfigError', () => {
    expect(() => decodeConfigHash('#num_envs=0')).toThrow("num_envs must be an integer in [1, 4096] (got '0')");
    expect(() => decodeConfigHash('#nm_envs=4')).toThrow("unknown config key 'nm_envs'; did you mean num_envs");
    expect(() => decodeConfigHash('#policy.n_action_steps=20')).toThrow('policy.n_action_steps (20) must be ≤ policy.horizon (8)');
    expect(() => decodeConfigHash('#seed=%E0%A4%A')).toThrow(ConfigError);
    expect(() => decodeConfigHash('#seed=%E0%A4%A')).toThrow("URL hash part 'seed=%E0%A4%A' is not valid percent-encoding");
  });
});

describe('diffConfig', () => {
  it('lists changed fields in table order with from and to', () => {
    const a = defaultConfig();
    const b = applyOverrides(a, ['ppo.epochs=8', 'seed=3', 'policy.hidden=256,256,128', 'noise.level=0.5']);
    expect(diffConfig(a, b)).toEqual([
      { key: 'seed', from: 0, to: 3 },
      { key: 'policy.hidden', from: [256, 256, 256], to: [256, 256, 128] },
      { key: 'ppo.epochs', from: 4, to: 8 },
    ]);
    expect(diffConfig(b, a).map((change) => change.key)).toEqual(['seed', 'policy.hidden', 'ppo.epochs']);
    expect(diffConfig(a, defaultConfig())).toEqual([]);
  });

  it('treats lists of different lengths as changed', () => {
    const b = applyOverrides(defaultConfig(), ['policy.hidden=256,256']);
    expect(diffConfig(defaultConfig(), b)).toEqual([{ key: 'policy.hidden', from: [256, 256, 256], to: [256, 256] }]);
  });
});

describe('configFromJson', () => {
  it('round-trips through JSON and fills missing fields with defaults', () => {
    const rng = createRng(Date.now() % 1_000_000);
    for (let trial = 0; trial < 20; trial++) {
      const config = randomValidConfig(rng);
      expect(configFromJson(JSON.parse(JSON.stringify(config)))).toEqual(config);
    }
    expect(configFromJson({ ppo: { epochs: 2 } })).toEqual(applyOverrides(defaultConfig(), ['ppo.epochs=2']));
  });

  it('rejects non-objects, unknown keys and bad values, naming the source', () => {
    expect(() => configFromJson([], 'runs/a/config.json')).toThrow('runs/a/config.json must be a JSON object of config fields');
    expect(() => configFromJson({ ppo: 3 })).toThrow('config: ppo must be an object of ppo.* fields');
    expect(() => configFromJson({ ppo: { clip: 0.2 } })).toThrow("unknown config key 'ppo.clip'; did you mean");
    expect(() => configFromJson({ num_envs: '16' }, 'ckpt')).toThrow("ckpt: num_envs must be an integer in [1, 4096] (got '16')");
    expect(() => configFromJson({ policy: { horizon: 2 } })).toThrow('policy.n_action_steps (4) must be ≤ policy.horizon (2)');
  });
});
