import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors';
import { defaultConfig } from './access';
import { applyOverrides } from './overrides';
import type { RunConfig } from './run-config';
import { listConfigProblems, validateConfig } from './validate';
import { presetConfig } from './presets';

const withOverrides = (...overrides: string[]): RunConfig => applyOverrides(defaultConfig(), overrides);

function validationError(config: RunConfig): ConfigError {
  try {
    validateConfig(config);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('validateConfig', () => {
  it('returns a valid config unchanged', () => {
    const config = withOverrides('noise.method=noise', 'noise.mode=joint');
    expect(validateConfig(config)).toBe(config);
    // cps in joint mode: its std-0 last step is a term of the chain's log-prob (DESIGN.md §3), as in RLinf.
    const cpsJoint = withOverrides('noise.method=cps', 'noise.mode=joint');
    expect(validateConfig(cpsJoint)).toBe(cpsJoint);
  });

  it('refuses a rollout too large to hold, naming num_envs and env.steps_per_iteration, and keeps large ones that fit', () => {
    const error = validationError(withOverrides('task=pick-cube', 'num_envs=4096', 'env.steps_per_iteration=100000'));
    expect(error.field).toBe('num_envs');
    // pick-cube's state frame is 39 values: 4 · (2·39 + 5·8·4 + 4 + 4·4 + 7) + 3 = 1063 bytes per decision.
    expect(error.message).toBe('num_envs × env.steps_per_iteration (4096 × 100000 = 409600000 decisions) needs a 405.5 GiB rollout buffer '
      + '(1063 bytes per decision), over the 2 GiB one run may hold; lower either so that their product is at most 2020210');
    // 4096 envs × 32 decisions of a 256-point cloud policy: about 0.86 GiB.
    const large = withOverrides('task=pick-cube', 'env.obs_type=pointcloud', 'env.num_points=256', 'num_envs=4096', 'env.steps_per_iteration=32');
    expect(validateConfig(large)).toBe(large);
  });

  it('explains each cross-field problem and how to fix it', () => {
    const cases: Array<[string[], string, string]> = [
      [['policy.horizon=8', 'policy.n_action_steps=10'], 'policy.n_action_steps',
        'policy.n_action_steps (10) must be ≤ policy.horizon (8); lower n_action_steps or raise horizon'],
      // 16 × 30 = 480, and 480 / 64 = 7.5.
      [['env.steps_per_iteration=30'], 'ppo.minibatch_size',
        'ppo.minibatch_size (64) must divide num_envs × env.steps_per_iteration (16 × 30 = 480)'],
      [['noise.std_min=0.5', 'noise.std_max=0.2'], 'noise.std_min', 'noise.std_min (0.5) must be ≤ noise.std_max (0.2)'],
      [['noise.method=cps', 'noise.level=1.5'], 'noise.level',
        'noise.level (1.5) must be a number in (0, 1] with noise.method=cps, where it sets the angle πa/2 of each step, which must be in (0, π/2]'],
      [['noise.decay=linear', 'noise.decay_steps=0'], 'noise.decay_steps',
        'noise.decay_steps must be ≥ 1 with noise.decay=linear; set it or use noise.decay=constant'],
      [['noise.decay=cosine', 'noise.level=0.3', 'noise.level_min=0.4'], 'noise.level_min',
        'noise.level_min (0.4) must be ≤ noise.level (0.3) with noise.decay=cosine'],
      [['ppo.dual_clip=0.5'], 'ppo.dual_clip', 'ppo.dual_clip (0.5) must be > 1, or 0 to turn it off'],
      [['ppo.logprob_clamp=true', 'ppo.logprob_min=2'], 'ppo.logprob_min',
        'ppo.logprob_min (2) must be below ppo.logprob_max (1) with ppo.logprob_clamp=true, or every ratio would be 1 and the actor would get no gradient'],
      [['ppo.weight_decay=0.01'], 'ppo.weight_decay',
        'ppo.weight_decay (0.01) applies only with ppo.optimizer=adamw; set ppo.optimizer=adamw or ppo.weight_decay=0'],
      [['advantages.type=grpo', 'advantages.group_size=6'], 'advantages.group_size',
        'advantages.group_size (6) must divide num_envs (16) with advantages.type=grpo'],
      [['advantages.type=nstep', 'advantages.n_steps=40'], 'advantages.n_steps',
        'advantages.n_steps (40) must be ≤ env.steps_per_iteration (32)'],
      [['iterations=0', 'total_env_steps=0'], 'iterations', 'iterations and total_env_steps are both 0; set at least one of them'],
      [['eval_episodes=0'], 'eval_episodes', 'eval_episodes is 0 but eval.every is 10; set eval_episodes ≥ 1 or eval.every=0'],
      [['eval_episodes=3', 'eval.record_episodes=5'], 'eval.record_episodes', 'eval.record_episodes (5) must be ≤ eval_episodes (3)'],
      [['policy.velocity_net=ditx', 'policy.ditx_dim=100', 'policy.ditx_heads=8'], 'policy.ditx_heads',
        'policy.ditx_heads (8) must divide policy.ditx_dim (100)'],
      [['policy.velocity_net=unet1d', 'policy.unet_dims=32,40', 'policy.unet_groups=16'], 'policy.unet_groups',
        'policy.unet_groups (16) must divide every width of policy.unet_dims (32,40), but not 40'],
      [['policy.velocity_net=unet1d', 'policy.unet_kernel=4'], 'policy.unet_kernel',
        'policy.unet_kernel (4) must be odd, so the same-padded convolutions keep the horizon'],
      [['policy.velocity_net=unet1d', 'policy.unet_dims=16,32,64', 'policy.horizon=6', 'policy.n_action_steps=4'], 'policy.horizon',
        'policy.horizon (6) must be a multiple of 4 with policy.unet_dims=16,32,64: the UNet1D halves the horizon between its 3 levels'],
    ];
    for (const [overrides, field, message] of cases) {
      const error = validationError(withOverrides(...overrides));
      expect(error.message, overrides.join(' ')).toBe(message);
      expect(error.field, overrides.join(' ')).toBe(field);
    }
  });

  it('refuses a noise level the sampler cannot use, naming the key and the allowed range', () => {
    const cases: Array<[string[], string, string]> = [
      [['noise.method=sde', 'noise.level=0'], 'noise.level',
        'noise.level (0) must be a number in (0, 5] with noise.method=sde, where σ_i = a·sqrt(t_i/(1−t_i)) is the noise of each step, which a = 0 would turn off'],
      [['noise.method=cps', 'noise.level=0'], 'noise.level',
        'noise.level (0) must be a number in (0, 1] with noise.method=cps, where it sets the angle πa/2 of each step, which must be in (0, π/2]'],
      [['noise.method=sde', 'noise.decay=linear', 'noise.level_min=0'], 'noise.level_min',
        'noise.level_min (0) must be a number in (0, 5] with noise.method=sde and noise.decay=linear, which takes noise.level toward it, '
        + 'where σ_i = a·sqrt(t_i/(1−t_i)) is the noise of each step, which a = 0 would turn off; raise noise.level_min or use noise.decay=constant'],
      [['noise.method=cps', 'noise.level=1', 'noise.decay=exponential', 'noise.level_min=0'], 'noise.level_min',
        'noise.level_min (0) must be a number in (0, 1] with noise.method=cps and noise.decay=exponential, which takes noise.level toward it, '
        + 'where it sets the angle πa/2 of each step, which must be in (0, π/2]; raise noise.level_min or use noise.decay=constant'],
      [['noise.method=cps', 'policy.denoise_steps=1'], 'policy.denoise_steps',
        'policy.denoise_steps (1) must be an integer in [2, 128] with noise.method=cps, whose last step has no noise, so one step leaves no stochastic step; '
        + 'raise policy.denoise_steps or use another noise.method'],
    ];
    for (const [overrides, field, message] of cases) {
      const error = validationError(withOverrides(...overrides));
      expect(error.message, overrides.join(' ')).toBe(message);
      expect(error.field, overrides.join(' ')).toBe(field);
    }
    // Methods that do not use a take the table's range, and a constant decay never reaches level_min.
    for (const method of ['ode', 'noise']) expect(() => validateConfig(withOverrides(`noise.method=${method}`, 'noise.level=0', 'noise.decay=linear', 'noise.level_min=0'))).not.toThrow();
    expect(() => validateConfig(withOverrides('noise.method=sde', 'noise.level_min=0'))).not.toThrow();
  });

  it('allows the fixes the messages suggest', () => {
    expect(() => validateConfig(withOverrides('env.steps_per_iteration=32', 'ppo.minibatch_size=128'))).not.toThrow();
    expect(() => validateConfig(withOverrides('ppo.weight_decay=0.01', 'ppo.optimizer=adamw'))).not.toThrow();
    expect(() => validateConfig(withOverrides('eval_episodes=0', 'eval.every=0', 'eval.record_episodes=0'))).not.toThrow();
    expect(() => validateConfig(withOverrides('advantages.type=grpo', 'advantages.group_size=4'))).not.toThrow();
    // The log-prob bounds are read only with the clamp on; any order is fine while it is off.
    expect(() => validateConfig(withOverrides('ppo.logprob_clamp=true', 'ppo.logprob_min=-5', 'ppo.logprob_max=2'))).not.toThrow();
    expect(() => validateConfig(withOverrides('ppo.logprob_min=2'))).not.toThrow();
    // level_min is ignored while the decay is constant.
    expect(() => validateConfig(withOverrides('noise.level=0.05'))).not.toThrow();
  });

  it('checks field types and bounds of configs built outside applyOverrides', () => {
    const config = defaultConfig() as unknown as { ppo: Record<string, unknown>; noise: Record<string, unknown> };
    config.ppo.epochs = 2.5;
    config.noise.method = 'flow_sde';
    const problems = listConfigProblems(config as unknown as RunConfig);
    expect(problems).toEqual([
      { field: 'noise.method', message: "noise.method must be one of ode, sde, cps, noise (got 'flow_sde')" },
      { field: 'ppo.epochs', message: 'ppo.epochs must be an integer in [1, 100] (got 2.5)' },
    ]);
    expect(validationError(config as unknown as RunConfig).field).toBe('noise.method');
  });

  it('bounds the Stage 3 keys: ppo.bc_coef ≥ 0 and advantages.grpo_filter a boolean, from overrides and from built configs', () => {
    expect(() => withOverrides('ppo.bc_coef=-1')).toThrow("ppo.bc_coef must be a number in [0, 1000000] (got '-1')");
    expect(() => withOverrides('advantages.grpo_filter=maybe')).toThrow("advantages.grpo_filter must be one of true, false (got 'maybe')");
    const config = withOverrides('ppo.bc_coef=0.1', 'advantages.type=grpo', 'advantages.grpo_filter=true');
    expect([config.ppo.bc_coef, config.advantages.grpo_filter]).toEqual([0.1, true]);
    expect(defaultConfig().ppo.bc_coef).toBe(0);
    expect(defaultConfig().advantages.grpo_filter).toBe(false);
    const built = defaultConfig() as unknown as { ppo: Record<string, unknown>; advantages: Record<string, unknown> };
    built.ppo.bc_coef = -1;
    built.advantages.grpo_filter = 1;
    expect(listConfigProblems(built as unknown as RunConfig)).toEqual([
      { field: 'ppo.bc_coef', message: 'ppo.bc_coef must be a number in [0, 1000000] (got -1)' },
      { field: 'advantages.grpo_filter', message: 'advantages.grpo_filter must be one of true, false (got 1)' },
    ]);
  });

  it('lists several cross-field problems at once', () => {
    const problems = listConfigProblems(withOverrides('policy.n_action_steps=10', 'env.steps_per_iteration=30'));
    expect(problems.map((problem) => problem.field)).toEqual(['policy.n_action_steps', 'ppo.minibatch_size']);
  });
});

describe('policy.kind=gaussian', () => {
  it('validates the gaussian-ppo preset and refuses chunked actions, stacked frames and point clouds with the fix', () => {
    const gaussian = presetConfig('gaussian-ppo');
    expect(validateConfig(gaussian)).toBe(gaussian);
    const problem = (overrides: string[]) => listConfigProblems(applyOverrides(gaussian, overrides))[0];
    expect(problem(['policy.horizon=4', 'policy.n_action_steps=2'])).toEqual({
      field: 'policy.horizon',
      message: 'policy.horizon (4) must be 1 with policy.kind=gaussian (or use preset=gaussian-ppo): a Gaussian policy predicts one action per decision',
    });
    expect(problem(['policy.n_obs_steps=2']).field).toBe('policy.n_obs_steps');
    expect(problem(['env.obs_type=pointcloud']).field).toBe('env.obs_type');
    // The flow defaults (H 8, 4 executed steps) are refused as soon as the kind alone changes.
    expect(listConfigProblems(applyOverrides(defaultConfig(), ['policy.kind=gaussian'])).map((entry) => entry.field)).toEqual(['policy.horizon', 'policy.n_action_steps', 'policy.n_obs_steps']);
  });
});
