import { describe, expect, it } from 'vitest';
import { defaultConfig, flattenConfig, getField, setField } from './access';
import { CONFIG_FIELDS, CONFIG_KEYS, describeAllowed, fieldGroup, fieldSpec, isConfigKey } from './fields';
import { listConfigProblems, validateConfig } from './validate';
import { parseFieldValue } from './field-values';
import { ConfigError } from '../errors';

const CANONICAL_KEYS = [
  'seed', 'num_envs', 'iterations', 'total_env_steps', 'actor_lr', 'critic_lr', 'noise.method', 'noise.level',
  'noise.std_min', 'noise.std_max', 'policy.denoise_steps', 'policy.horizon', 'policy.n_action_steps', 'eval_episodes',
];

describe('config field table', () => {
  it('has every canonical key of DESIGN.md §10', () => {
    for (const key of CANONICAL_KEYS) expect(isConfigKey(key), key).toBe(true);
    expect(fieldSpec('noise.method')).toMatchObject({ kind: 'enum', values: ['ode', 'sde', 'cps', 'noise'] });
  });

  it('has the researcher keys of the brief with their allowed values', () => {
    // Tasks are plugins (DESIGN.md §13): the field takes any task name, the registry knows which exist.
    expect(fieldSpec('task')).toMatchObject({ kind: 'name', default: 'pick-cube' });
    expect(fieldSpec('env.control_mode')).toMatchObject({ kind: 'name', default: 'default' });
    expect(fieldSpec('noise.logprob_type')).toMatchObject({ values: ['token', 'action', 'chunk', 'mean'] });
    expect(fieldSpec('noise.decay')).toMatchObject({ values: ['constant', 'linear', 'exponential', 'cosine'] });
    expect(fieldSpec('advantages.type')).toMatchObject({ values: ['gae', 'mc', 'nstep', 'grpo'] });
    expect(fieldSpec('ppo.lr_schedule')).toMatchObject({ values: ['constant', 'linear', 'cosine'] });
    expect(fieldSpec('policy.hidden')).toMatchObject({ kind: 'int-list', default: [256, 256, 256] });
    for (const key of ['ppo.dual_clip', 'ppo.value_clip', 'ppo.target_kl', 'ppo.critic_warmup_steps', 'eval.every', 'eval.seed',
      'advantages.group_size', 'env.steps_per_iteration', 'env.num_points', 'policy.detach_critic_input', 'noise.hold_steps']) {
      expect(isConfigKey(key), key).toBe(true);
    }
  });

  it('gives every field a one-line doc, a snake_case key and a default within its bounds', () => {
    for (const key of CONFIG_KEYS) {
      const spec = fieldSpec(key);
      expect(spec.doc.length, key).toBeGreaterThan(10);
      expect(spec.doc, key).not.toContain('\n');
      expect(key, key).toMatch(/^[a-z_]+(\.[a-z_]+)?$/);
    }
    expect(listConfigProblems(defaultConfig())).toEqual([]);
  });

  it('builds defaults that follow the references', () => {
    const config = validateConfig(defaultConfig());
    // RLinf 004: Flow-SDE hybrid with a = 0.5 and K = 4; learnable-noise range [0.08, 0.16].
    expect([config.noise.method, config.noise.mode, config.noise.level, config.policy.denoise_steps]).toEqual(['sde', 'hybrid', 0.5, 4]);
    expect([config.noise.std_min, config.noise.std_max]).toEqual([0.08, 0.16]);
    // γ, λ and clip shared by all references; ReinFlow 003 critic warm-up.
    expect([config.advantages.gamma, config.advantages.lambda, config.ppo.clip_low, config.ppo.clip_high]).toEqual([0.99, 0.95, 0.2, 0.2]);
    expect(config.ppo.critic_warmup_steps).toBeGreaterThan(0);
  });

  it('returns fresh defaults each call and copies lists on write', () => {
    const a = defaultConfig();
    a.policy.hidden.push(7);
    expect(defaultConfig().policy.hidden).toEqual([256, 256, 256]);
    const list = [8, 8];
    const b = setField(defaultConfig(), 'policy.hidden', list);
    list[0] = 99;
    expect(b.policy.hidden).toEqual([8, 8]);
  });

  it('reads and writes by dotted key without mutating the input', () => {
    const base = defaultConfig();
    const next = setField(setField(base, 'ppo.clip_low', 0.1), 'seed', 42);
    expect(getField(next, 'ppo.clip_low')).toBe(0.1);
    expect(next.seed).toBe(42);
    expect(base.ppo.clip_low).toBe(0.2);
    expect(base.seed).toBe(0);
    expect(next.noise).toBe(base.noise);
    expect(flattenConfig(next).map(([key]) => key)).toEqual(CONFIG_KEYS);
  });

  it('groups keys by section and describes allowed values', () => {
    expect(fieldGroup('seed')).toBe('run');
    expect(fieldGroup('ppo.epochs')).toBe('ppo');
    expect(new Set(CONFIG_KEYS.map(fieldGroup))).toEqual(new Set(['run', 'policy', 'noise', 'ppo', 'dppo', 'advantages', 'env', 'eval', 'video', 'pretrain', 'offline']));
    expect(describeAllowed(fieldSpec('ppo.clip_low'))).toBe('a number in (0, 1)');
    expect(describeAllowed(fieldSpec('ppo.epochs'))).toBe('an integer in [1, 100]');
    expect(describeAllowed(CONFIG_FIELDS['env.reward'])).toBe('one of dense, sparse');
    expect(describeAllowed(fieldSpec('policy.hidden'))).toBe('a comma-separated list of 1–8 integers in [1, 8192]');
    expect(describeAllowed(fieldSpec('env.camera'))).toBe("one or more names of letters, digits, '_', '-' and '.' separated by commas (at most 8)");
  });

  it('reads env.camera as a list of names and refuses anything else in one sentence', () => {
    expect(parseFieldValue('env.camera', ' front , wrist ')).toBe('front,wrist');
    expect(parseFieldValue('env.camera', 'default')).toBe('default');
    expect(() => parseFieldValue('env.camera', 'front,')).toThrow(/^env\.camera must be one or more names/);
    expect(() => parseFieldValue('env.camera', 'front wrist')).toThrow(ConfigError);
    expect(fieldSpec('env.image_size')).toMatchObject({ kind: 'int', default: 64, min: 4, max: 512 });
    expect(fieldSpec('env.obs_type')).toMatchObject({ values: ['state', 'pointcloud', 'depth_pointcloud', 'rgb', 'rgbd'], default: 'state' });
  });
});
