import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { applyOverrides } from './overrides';
import { assertNoCheckpointConflicts, checkpointConflicts, describeCheckpointConflict } from './checkpoint-conflicts';
import { runOverrides } from './run-overrides';

/** What a lift checkpoint pretrained with [128, 128, 128] implies (its control named, as runConfigForCheckpoint decides it). */
const CHECKPOINT = applyOverrides(defaultConfig(), ['task=lift', 'env.control_mode=ee_delta_pos', 'policy.hidden=128,128,128', 'policy.encoder_hidden=128,128', 'policy.value_hidden=128,128']);

function conflictMessage(overrides: string[]): string {
  try {
    assertNoCheckpointConflicts(CHECKPOINT, overrides);
  } catch (error) {
    expect((error as Error).name).toBe('ConfigError');
    return (error as Error).message;
  }
  throw new Error(`expected a conflict for ${overrides.join(' ')}`);
}

describe('checkpointConflicts', () => {
  it('names the key, the checkpoint\'s value and the override for each shape key', () => {
    expect(conflictMessage(['policy.hidden=64,64']))
      .toBe('policy.hidden=64,64 contradicts the checkpoint, which has policy.hidden=128,128,128; drop the override or pretrain a new checkpoint');
    const cases: [string, string][] = [
      ['policy.encoder_hidden=64', 'policy.encoder_hidden=128,128'],
      ['policy.value_hidden=32', 'policy.value_hidden=128,128'],
      ['policy.noise_head_hidden=64', 'policy.noise_head_hidden=128,64'],
      ['policy.velocity_net=ditx', 'policy.velocity_net=mlp'],
      ['policy.value_on=expert', 'policy.value_on=obs'],
      ['policy.horizon=16', 'policy.horizon=8'],
      ['policy.n_obs_steps=1', 'policy.n_obs_steps=2'],
      ['env.obs_type=pointcloud', 'env.obs_type=state'],
      ['env.control_mode=joint_delta_pos', 'env.control_mode=ee_delta_pos'],
    ];
    for (const [override, has] of cases) {
      expect(conflictMessage([override])).toBe(`${override} contradicts the checkpoint, which has ${has}; drop the override or pretrain a new checkpoint`);
    }
  });

  it('accepts overrides equal to the checkpoint\'s values, and sampling settings that leave shapes alone', () => {
    expect(checkpointConflicts(CHECKPOINT, ['policy.hidden=128,128,128', 'policy.horizon=8', 'policy.value_on=obs'])).toEqual([]);
    expect(checkpointConflicts(CHECKPOINT, ['policy.denoise_steps=2', 'policy.n_action_steps=8', 'num_envs=4', 'noise.method=noise'])).toEqual([]);
  });

  it('checks DiT-X sizes only on a DiT-X checkpoint and num_points only on a point-cloud one', () => {
    expect(checkpointConflicts(CHECKPOINT, ['policy.ditx_dim=64', 'env.num_points=64'])).toEqual([]);
    const ditx = applyOverrides(CHECKPOINT, ['policy.velocity_net=ditx', 'env.obs_type=pointcloud']);
    expect(checkpointConflicts(ditx, ['policy.ditx_dim=64', 'policy.ditx_depth=2', 'policy.ditx_heads=2', 'env.num_points=64']).map((conflict) => conflict.override))
      .toEqual(['policy.ditx_dim=64', 'policy.ditx_depth=2', 'policy.ditx_heads=2', 'env.num_points=64']);
  });

  it('checks UNet1D sizes only on a UNet1D checkpoint', () => {
    expect(checkpointConflicts(CHECKPOINT, ['policy.unet_dims=16,32', 'policy.unet_kernel=3', 'policy.unet_groups=4'])).toEqual([]);
    const unet = applyOverrides(CHECKPOINT, ['policy.velocity_net=unet1d']);
    expect(checkpointConflicts(unet, ['policy.unet_dims=16,32', 'policy.unet_kernel=3', 'policy.unet_groups=4', 'policy.unet_dims=32,64']).map((conflict) => conflict.override))
      .toEqual(['policy.unet_kernel=3', 'policy.unet_groups=4']);
    expect(checkpointConflicts(unet, ['policy.unet_dims=64,128'])[0]).toMatchObject({ key: 'policy.unet_dims', checkpoint: 'policy.unet_dims=32,64' });
  });

  it('checks the cameras only on a depth-cloud checkpoint, whose policy learnt from what they saw', () => {
    const surface = applyOverrides(CHECKPOINT, ['policy.velocity_net=ditx', 'env.obs_type=pointcloud']);
    expect(checkpointConflicts(surface, ['env.camera=wrist', 'env.image_size=32'])).toEqual([]);
    expect(checkpointConflicts(surface, ['env.obs_type=depth_pointcloud']).map((conflict) => conflict.override)).toEqual(['env.obs_type=depth_pointcloud']);
    const depth = applyOverrides(surface, ['env.obs_type=depth_pointcloud', 'env.camera=front']);
    expect(checkpointConflicts(depth, ['env.camera=front', 'env.image_size=64', 'env.num_points=256'])).toEqual([]);
    expect(checkpointConflicts(depth, ['env.camera=front,wrist', 'env.image_size=32', 'env.num_points=64']).map((conflict) => conflict.override))
      .toEqual(['env.num_points=64', 'env.camera=front,wrist', 'env.image_size=32']);
  });

  it('judges the final value, so a later override equal to the checkpoint clears an earlier one', () => {
    expect(checkpointConflicts(CHECKPOINT, ['policy.hidden=64', 'policy.hidden=128,128,128'])).toEqual([]);
    expect(checkpointConflicts(CHECKPOINT, ['policy.hidden=128,128,128', 'policy.hidden=64']).map((conflict) => conflict.override)).toEqual(['policy.hidden=64']);
  });

  it('says when a contradicting override came from a preset', () => {
    const [first] = checkpointConflicts(CHECKPOINT, runOverrides('tiny', []));
    expect(first).toMatchObject({ key: 'policy.hidden', override: 'policy.hidden=32,32', checkpoint: 'policy.hidden=128,128,128', preset: 'tiny' });
    expect(describeCheckpointConflict(first)).toBe('policy.hidden=32,32 (from preset tiny) contradicts the checkpoint, which has policy.hidden=128,128,128; '
      + 'add policy.hidden=128,128,128, use another preset, or pretrain a new checkpoint');
    // The caller's own override of the same key is theirs, not the preset's.
    const [own] = checkpointConflicts(CHECKPOINT, runOverrides('tiny', ['policy.hidden=64']));
    expect(own).toMatchObject({ override: 'policy.hidden=64', preset: undefined });
  });
});
