import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { applyOverrides } from './overrides';
import { presetConfig } from './presets';
import { CLI_NO_PPO_HOST, CLI_OFFLINE_HOST, CLI_PRETRAIN_HOST, CLI_TRAIN_HOST, STUDIO_HOST, configWarnings } from './warnings';
import type { ConfigKey } from './run-config';

const withOverrides = (...overrides: string[]) => applyOverrides(defaultConfig(), overrides);

describe('configWarnings', () => {
  it('says nothing for the defaults', () => {
    expect(configWarnings(defaultConfig(), [], CLI_TRAIN_HOST)).toEqual([]);
    expect(configWarnings(defaultConfig(), [], STUDIO_HOST)).toEqual([]);
  });

  it('warns that an entropy bonus does nothing with a fixed-std method, and only where PPO trains', () => {
    for (const method of ['sde', 'cps'] as const) {
      const config = withOverrides(`noise.method=${method}`, 'ppo.entropy_coef=0.01');
      expect(configWarnings(config, [], CLI_TRAIN_HOST)).toEqual([
        `ppo.entropy_coef=0.01 does nothing with noise.method=${method}, whose std is fixed, so the entropy term has no gradient; only noise.method=noise has a learned std`,
      ]);
      expect(configWarnings(config, [], CLI_NO_PPO_HOST)).toEqual([]);
    }
    expect(configWarnings(withOverrides('noise.method=noise', 'ppo.entropy_coef=0.01'), [], CLI_TRAIN_HOST)).toEqual([]);
  });

  it('warns once for every given video key on a host without videos, and not in the studio', () => {
    const config = withOverrides('video.every=20', 'video.episodes=3');
    const given: ConfigKey[] = ['video.every', 'video.episodes', 'video.every'];
    const warnings = configWarnings(config, given, CLI_TRAIN_HOST);
    expect(warnings).toEqual(['video.every=20, video.episodes=3 do nothing on the command line, which records no videos; only the studio records eval videos']);
    expect(configWarnings(withOverrides('video.episodes=0'), ['video.episodes'], CLI_NO_PPO_HOST)[0]).toMatch(/^video\.episodes=0 does nothing on the command line/);
    expect(configWarnings(config, given, STUDIO_HOST)).toEqual([]);
    // Keys nobody gave are not warned about, even when they differ from the defaults.
    expect(configWarnings(config, [], CLI_TRAIN_HOST)).toEqual([]);
  });

  it('warns that MLP widths do nothing for DiT-X, and DiT-X sizes nothing for the MLP', () => {
    expect(configWarnings(withOverrides('policy.velocity_net=ditx', 'policy.hidden=64,64'), ['policy.velocity_net', 'policy.hidden'], CLI_TRAIN_HOST))
      .toEqual(['policy.hidden=64,64 does nothing with policy.velocity_net=ditx; it sizes the MLP velocity net only (DiT-X takes policy.ditx_dim, ditx_depth and ditx_heads)']);
    expect(configWarnings(withOverrides('policy.ditx_dim=64', 'policy.ditx_depth=2'), ['policy.ditx_dim', 'policy.ditx_depth'], CLI_NO_PPO_HOST))
      .toEqual(['policy.ditx_dim=64, policy.ditx_depth=2 do nothing with policy.velocity_net=mlp; they size the DiT-X velocity net only']);
    expect(configWarnings(withOverrides('policy.velocity_net=ditx', 'policy.ditx_dim=64'), ['policy.velocity_net', 'policy.ditx_dim'], STUDIO_HOST)).toEqual([]);
  });

  it('warns that MLP widths do nothing for the UNet1D, and UNet1D sizes nothing for other nets', () => {
    expect(configWarnings(withOverrides('policy.velocity_net=unet1d', 'policy.hidden=64,64'), ['policy.velocity_net', 'policy.hidden'], CLI_TRAIN_HOST))
      .toEqual(['policy.hidden=64,64 does nothing with policy.velocity_net=unet1d; it sizes the MLP velocity net only (the UNet1D takes policy.unet_dims, unet_kernel and unet_groups)']);
    expect(configWarnings(withOverrides('policy.velocity_net=ditx', 'policy.unet_dims=16,32', 'policy.unet_groups=4'), ['policy.velocity_net', 'policy.unet_dims', 'policy.unet_groups'], CLI_TRAIN_HOST))
      .toEqual(['policy.unet_dims=16,32, policy.unet_groups=4 do nothing with policy.velocity_net=ditx; they size the UNet1D velocity net only']);
    expect(configWarnings(withOverrides('policy.unet_kernel=3'), ['policy.unet_kernel'], STUDIO_HOST))
      .toEqual(['policy.unet_kernel=3 does nothing with policy.velocity_net=mlp; it sizes the UNet1D velocity net only']);
    expect(configWarnings(withOverrides('policy.velocity_net=unet1d', 'policy.unet_dims=16,32'), ['policy.velocity_net', 'policy.unet_dims'], STUDIO_HOST)).toEqual([]);
  });

  it('warns that policy.obs_clip does nothing for the Gaussian policy, whose own normalization clips, and not for chain policies', () => {
    const gaussian = applyOverrides(presetConfig('gaussian-ppo'), ['policy.obs_clip=5']);
    expect(configWarnings(gaussian, ['policy.obs_clip'], CLI_TRAIN_HOST)).toEqual([
      'policy.obs_clip=5 does nothing with policy.kind=gaussian, whose running observation normalization clips at ±ppo.norm_clip instead',
    ]);
    expect(configWarnings(withOverrides('policy.obs_clip=5'), ['policy.obs_clip'], CLI_TRAIN_HOST)).toEqual([]);
    expect(configWarnings(applyOverrides(presetConfig('dppo'), ['policy.obs_clip=5']), ['policy.obs_clip'], CLI_TRAIN_HOST)).toEqual([]);
  });

  it('warns that on_nonfinite=rollback does nothing when training never stops, or on the command line with nothing saved before the end', () => {
    const never = applyOverrides(defaultConfig(), ['on_nonfinite=rollback', 'ppo.max_nonfinite_skips=0']);
    expect(configWarnings(never, ['on_nonfinite'], STUDIO_HOST)).toEqual(['on_nonfinite=rollback does nothing with ppo.max_nonfinite_skips=0, which never stops training on non-finite updates']);
    const unsaved = applyOverrides(defaultConfig(), ['on_nonfinite=rollback', 'checkpoint_every=0']);
    expect(configWarnings(unsaved, ['on_nonfinite'], CLI_TRAIN_HOST)).toEqual(['on_nonfinite=rollback does nothing with checkpoint_every=0: no checkpoint is saved before the end, so there is none to roll back to']);
    // The studio autosaves on its own, and pretrain never runs PPO.
    expect(configWarnings(unsaved, ['on_nonfinite'], STUDIO_HOST)).toEqual([]);
    expect(configWarnings(unsaved, ['on_nonfinite'], CLI_NO_PPO_HOST)).toEqual([]);
  });

  it('warns that a given advantages.normalize=true does nothing with grpo, whose advantages are group-normalized only', () => {
    const config = withOverrides('advantages.type=grpo', 'advantages.group_size=4', 'advantages.normalize=true');
    expect(configWarnings(config, ['advantages.type', 'advantages.normalize'], CLI_TRAIN_HOST)).toEqual([
      'advantages.normalize=true does nothing with advantages.type=grpo, whose advantages are normalized within each group only (as in RLinf), never again over the batch',
    ]);
    // Left at its default, or off, or with another estimator, or where PPO does not train: nothing to say.
    expect(configWarnings(config, ['advantages.type'], CLI_TRAIN_HOST)).toEqual([]);
    expect(configWarnings(withOverrides('advantages.type=grpo', 'advantages.group_size=4', 'advantages.normalize=false'), ['advantages.normalize'], CLI_TRAIN_HOST)).toEqual([]);
    expect(configWarnings(withOverrides('advantages.normalize=true'), ['advantages.normalize'], CLI_TRAIN_HOST)).toEqual([]);
    expect(configWarnings(config, ['advantages.normalize'], CLI_NO_PPO_HOST)).toEqual([]);
  });

  it('warns that the log-prob bounds do nothing while ppo.logprob_clamp is off', () => {
    const config = withOverrides('ppo.logprob_min=-2', 'ppo.logprob_max=0.5');
    expect(configWarnings(config, ['ppo.logprob_min', 'ppo.logprob_max'], CLI_TRAIN_HOST)).toEqual([
      'ppo.logprob_min=-2, ppo.logprob_max=0.5 do nothing with ppo.logprob_clamp=false; set ppo.logprob_clamp=true to clamp the log-probs',
    ]);
    expect(configWarnings(withOverrides('ppo.logprob_clamp=true', 'ppo.logprob_min=-2'), ['ppo.logprob_clamp', 'ppo.logprob_min'], CLI_TRAIN_HOST)).toEqual([]);
    expect(configWarnings(config, ['ppo.logprob_min'], CLI_NO_PPO_HOST)).toEqual([]);
  });

  it('warns that env.num_points does nothing with state observations', () => {
    const config = withOverrides('env.num_points=64');
    expect(configWarnings(config, ['env.num_points'], STUDIO_HOST))
      .toEqual(['env.num_points=64 does nothing with env.obs_type=state; it sizes point-cloud observations only (env.obs_type=pointcloud or depth_pointcloud)']);
    expect(configWarnings(withOverrides('env.num_points=64', 'env.obs_type=pointcloud'), ['env.num_points'], STUDIO_HOST)).toEqual([]);
    expect(configWarnings(withOverrides('env.num_points=64', 'env.obs_type=depth_pointcloud'), ['env.num_points'], STUDIO_HOST)).toEqual([]);
  });

  it('warns that the camera keys do nothing unless the observation comes from the cameras (depth clouds, images)', () => {
    const given = ['env.camera', 'env.image_size'] as const;
    for (const obsType of ['state', 'pointcloud'] as const) {
      const config = withOverrides(`env.obs_type=${obsType}`, 'env.camera=front,wrist', 'env.image_size=32');
      expect(configWarnings(config, given, CLI_TRAIN_HOST)).toEqual([
        `env.camera=front,wrist, env.image_size=32 do nothing with env.obs_type=${obsType}; only depth point clouds and camera images (env.obs_type=depth_pointcloud, rgb or rgbd) render the task's cameras`,
      ]);
    }
    expect(configWarnings(withOverrides('env.image_size=32'), ['env.image_size'], CLI_TRAIN_HOST))
      .toEqual(["env.image_size=32 does nothing with env.obs_type=state; only depth point clouds and camera images (env.obs_type=depth_pointcloud, rgb or rgbd) render the task's cameras"]);
    for (const obsType of ['depth_pointcloud', 'rgb', 'rgbd'] as const) {
      expect(configWarnings(withOverrides(`env.obs_type=${obsType}`, 'env.camera=wrist', 'env.image_size=32'), given, CLI_TRAIN_HOST)).toEqual([]);
    }
  });

  it('warns that advantages.grpo_filter does nothing without GRPO, and only where PPO trains', () => {
    for (const type of ['gae', 'mc', 'nstep'] as const) {
      const config = withOverrides(`advantages.type=${type}`, 'advantages.grpo_filter=true');
      expect(configWarnings(config, [], CLI_TRAIN_HOST)).toEqual([
        `advantages.grpo_filter=true does nothing with advantages.type=${type}; it filters GRPO groups only (advantages.type=grpo)`,
      ]);
      expect(configWarnings(config, ['advantages.grpo_filter'], CLI_NO_PPO_HOST)).toEqual([]);
    }
    expect(configWarnings(withOverrides('advantages.type=grpo', 'advantages.grpo_filter=true'), ['advantages.grpo_filter'], STUDIO_HOST)).toEqual([]);
    expect(configWarnings(withOverrides('advantages.grpo_filter=false'), ['advantages.grpo_filter'], STUDIO_HOST)).toEqual([]);
  });

  it('warns about a recipe stage\'s keys where that stage does not run', () => {
    const config = withOverrides('pretrain.steps=500', 'offline.beta=0.5');
    const given = ['pretrain.steps', 'offline.beta'] as const;
    expect(configWarnings(config, given, CLI_TRAIN_HOST)).toEqual([
      'pretrain.steps=500, offline.beta=0.5 do nothing here; pretrain.* sets stage 1 (npm run pretrain) and offline.* stage 2 (npm run offline)',
    ]);
    expect(configWarnings(config, given, CLI_PRETRAIN_HOST)).toEqual([
      'offline.beta=0.5 does nothing here; pretrain.* sets stage 1 (npm run pretrain) and offline.* stage 2 (npm run offline)',
    ]);
    expect(configWarnings(config, given, CLI_OFFLINE_HOST)[0]).toMatch(/^pretrain\.steps=500 does nothing here; /);
    expect(configWarnings(config, given, STUDIO_HOST)).toEqual([]);
    // Keys nobody set are never warned about, whatever their values.
    expect(configWarnings(config, [], CLI_TRAIN_HOST)).toEqual([]);
  });

  it('warns that ppo.* and eval.* do nothing in a recipe stage, which trains no PPO and evaluates at its own steps', () => {
    const config = withOverrides('ppo.clip_low=0.1', 'eval.seed=7');
    const given = ['ppo.clip_low', 'eval.seed'] as const;
    expect(configWarnings(config, given, CLI_PRETRAIN_HOST)).toEqual([
      'ppo.clip_low=0.1, eval.seed=7 do nothing here; ppo.* and eval.* set PPO fine-tuning (npm run train), and a recipe stage evaluates eval_episodes every pretrain.eval_every steps',
    ]);
    expect(configWarnings(config, ['eval.seed'], CLI_OFFLINE_HOST)).toEqual([
      'eval.seed=7 does nothing here; ppo.* and eval.* set PPO fine-tuning (npm run train), and a recipe stage evaluates eval_episodes every offline.eval_every steps',
    ]);
    // Where PPO trains (the command line's train, the studio) they take effect; eval has no stage and is not judged here.
    for (const host of [CLI_TRAIN_HOST, STUDIO_HOST, CLI_NO_PPO_HOST]) expect(configWarnings(config, given, host)).toEqual([]);
  });

  it('warns that pretrain.save_every does nothing in the studio, and nowhere else that runs stage 1', () => {
    const config = withOverrides('pretrain.save_every=100');
    expect(configWarnings(config, ['pretrain.save_every'], STUDIO_HOST)).toEqual([
      'pretrain.save_every=100 does nothing in the studio, where a paused stage 1 waits in the page; npm run pretrain saves the state a stopped BC continues from',
    ]);
    expect(configWarnings(config, ['pretrain.save_every'], CLI_PRETRAIN_HOST)).toEqual([]);
  });

  it('gives each warning at most once, in a fixed order', () => {
    const config = withOverrides('ppo.entropy_coef=0.1', 'video.every=10', 'env.num_points=32');
    const warnings = configWarnings(config, ['env.num_points', 'video.every', 'env.num_points'], CLI_TRAIN_HOST);
    expect(warnings).toHaveLength(3);
    expect(warnings.map((warning) => warning.split(' ')[0])).toEqual(['ppo.entropy_coef=0.1', 'video.every=10', 'env.num_points=32']);
  });

  it('warns that flow-only keys do nothing for a Gaussian policy, and Gaussian-only keys nothing for a flow policy', () => {
    const gaussian = applyOverrides(presetConfig('gaussian-ppo'), ['noise.level=0.3', 'policy.denoise_steps=8']);
    expect(configWarnings(gaussian, ['noise.level', 'policy.denoise_steps'], CLI_TRAIN_HOST)).toEqual([
      'noise.level=0.3, policy.denoise_steps=8 do nothing with policy.kind=gaussian; they apply to flow policies only',
    ]);
    expect(configWarnings(withOverrides('policy.init_log_std=-1'), ['policy.init_log_std'], CLI_TRAIN_HOST)).toEqual([
      'policy.init_log_std=-1 does nothing with policy.kind=flow; it applies to the Gaussian policy only (policy.kind=gaussian)',
    ]);
    // Reward scaling applies to every family; its clip does nothing while a flow policy's scaling is off (auto).
    expect(configWarnings(withOverrides('ppo.reward_norm=true', 'ppo.norm_clip=5'), ['ppo.reward_norm', 'ppo.norm_clip'], CLI_TRAIN_HOST)).toEqual([]);
    expect(configWarnings(withOverrides('ppo.norm_clip=5'), ['ppo.norm_clip'], CLI_TRAIN_HOST)).toEqual([
      'ppo.norm_clip=5 does nothing without reward scaling (ppo.reward_norm=auto with policy.kind=flow); set ppo.reward_norm=true',
    ]);
    expect(configWarnings(presetConfig('gaussian-ppo'), [], CLI_TRAIN_HOST)).toEqual([]);
  });

  it('warns that noise, value-input and entropy keys do nothing for a diffusion policy, and dppo.* nothing for another family', () => {
    const diffusion = applyOverrides(presetConfig('dppo'), ['noise.level=0.3', 'ppo.entropy_coef=0.01']);
    expect(configWarnings(diffusion, ['noise.level', 'ppo.entropy_coef', 'ppo.reward_norm', 'dppo.clip_base'], CLI_TRAIN_HOST)).toEqual([
      'noise.level=0.3, ppo.entropy_coef=0.01 do nothing with policy.kind=diffusion: DPPO explores with dppo.min_sampling_std on fixed step stds and its critic reads the observation',
    ]);
    expect(configWarnings(withOverrides('dppo.clip_base=0.1', 'policy.ddim_steps=2'), ['dppo.clip_base', 'policy.ddim_steps'], CLI_TRAIN_HOST)).toEqual([
      'dppo.clip_base=0.1, policy.ddim_steps=2 do nothing with policy.kind=flow; they apply to diffusion policies only (policy.kind=diffusion)',
    ]);
    // The preset itself names only keys a diffusion policy reads.
    expect(configWarnings(presetConfig('dppo'), [], CLI_TRAIN_HOST)).toEqual([]);
  });
});
