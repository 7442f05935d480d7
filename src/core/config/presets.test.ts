import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { deriveSizes } from './derive';
import { diffConfig } from './diff';
import { PRESET_NAMES, PRESETS, presetConfig } from './presets';

describe('presets', () => {
  it('are all valid, and default equals defaultConfig()', () => {
    for (const name of PRESET_NAMES) expect(() => presetConfig(name), name).not.toThrow();
    expect(presetConfig('default')).toEqual(defaultConfig());
  });

  it('tiny is small enough for an end-to-end run', () => {
    const tiny = presetConfig('tiny');
    expect(tiny.policy.hidden).toEqual([32, 32]);
    expect([tiny.num_envs, tiny.policy.denoise_steps, tiny.policy.horizon]).toEqual([4, 4, 4]);
    const sizes = deriveSizes(tiny);
    // 4 envs × 8 decisions = 32; minibatch 16 → 2 per epoch; 3 iterations; eval at iteration 3.
    expect([sizes.batchSize, sizes.minibatchesPerEpoch, sizes.iterations, sizes.evaluations]).toEqual([32, 2, 3, 1]);
    expect(tiny.eval_episodes).toBeLessThanOrEqual(4);
  });

  it('hold the 22 ReinFlow runs of reference 003: a baseline and 21 one-category ablations', () => {
    const reinflow = PRESET_NAMES.filter((name) => name.startsWith('reinflow-') && PRESETS[name].category !== 'general');
    expect(reinflow).toHaveLength(22);
    const baseline = presetConfig('reinflow-baseline');
    expect(baseline.noise).toMatchObject({ method: 'noise', std_min: 0.01, std_max: 0.3, decay: 'linear', decay_steps: 500_000 });
    // ReinFlow's log-prob scale: a joint chain averaged over (K + 1)·H·A, in every variant.
    for (const name of reinflow) expect(presetConfig(name).noise, name).toMatchObject({ mode: 'joint', logprob_type: 'mean' });
    expect([baseline.actor_lr, baseline.critic_lr, baseline.policy.denoise_steps, baseline.env.steps_per_iteration]).toEqual([3e-5, 1e-4, 8, 128]);
    // ReinFlow's state-input clip on its mean unit; seed 003's 0.2 is on the summed log-prob, (K + 1)·H·A times the mean.
    expect([baseline.ppo.clip_low, baseline.ppo.clip_high]).toEqual([0.01, 0.01]);
    expect([presetConfig('reinflow-clip-tight').ppo.clip_low, presetConfig('reinflow-clip-loose').ppo.clip_high]).toEqual([0.005, 0.015]);
    for (const name of reinflow) {
      if (name === 'reinflow-baseline') continue;
      const changes = diffConfig(baseline, presetConfig(name));
      expect(changes.length, name).toBeGreaterThanOrEqual(1);
      expect(changes.length, name).toBeLessThanOrEqual(2);
      expect(PRESETS[name].category, name).not.toBe('baseline');
    }
    expect(diffConfig(baseline, presetConfig('reinflow-lr-low'))).toEqual([
      { key: 'actor_lr', from: 3e-5, to: 1e-5 },
      { key: 'critic_lr', from: 1e-4, to: 3e-5 },
    ]);
    expect(diffConfig(baseline, presetConfig('reinflow-rollout-long')).map((change) => change.key))
      .toEqual(['ppo.minibatch_size', 'env.steps_per_iteration']); // table order: ppo before env
  });

  it('reinflow-pickcube-rgb is the baseline on the camera with seed 003\'s UNet1D, chunking and one observation frame (images take one)', () => {
    const changes = diffConfig(presetConfig('reinflow-baseline'), presetConfig('reinflow-pickcube-rgb')).map((change) => `${change.key}=${change.to}`);
    expect(changes.sort()).toEqual(['env.obs_type=rgb', 'policy.horizon=16', 'policy.n_action_steps=8', 'policy.n_obs_steps=1', 'policy.velocity_net=unet1d'].sort());
  });

  it('locomotion-reinflow carries ReinFlow\'s Gym fine-tune settings at our rollout size', () => {
    const config = presetConfig('locomotion-reinflow');
    expect(config.noise).toMatchObject({ method: 'noise', mode: 'joint', logprob_type: 'mean', std_min: 0.1, std_max: 0.24, decay: 'constant' });
    expect([config.ppo.clip_low, config.ppo.clip_high, config.ppo.entropy_coef, config.ppo.epochs, config.ppo.critic_warmup_steps]).toEqual([0.01, 0.01, 0.03, 5, 0]);
    expect([config.actor_lr, config.critic_lr, config.policy.denoise_steps, config.ppo.logprob_clamp]).toEqual([2e-4, 6.5e-4, 4, true]);
    // 16 envs × 128 decisions = 2048 rows in minibatches of 512: 4 per epoch, 20 actor steps per iteration.
    const sizes = deriveSizes(config);
    expect([sizes.batchSize, sizes.minibatchesPerEpoch]).toEqual([2048, 4]);
  });

  it('locomotion-flowsde is locomotion-reinflow with Flow-SDE\'s noise: the same rollout, budget, lr, epochs and clip', () => {
    const changes = diffConfig(presetConfig('locomotion-reinflow'), presetConfig('locomotion-flowsde')).map((change) => `${change.key}=${change.to}`);
    // The entropy bonus has no gradient with a fixed σ; the level is 0.8, above the run config's (and πRL's) 0.5.
    expect(changes.sort()).toEqual(['noise.level=0.8', 'noise.method=sde', 'noise.mode=hybrid', 'ppo.entropy_coef=0'].sort());
    expect(presetConfig('default').noise.level).toBe(0.5);
  });
});
