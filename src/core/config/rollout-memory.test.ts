import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig } from '.';
import { listConfigProblems } from './validate';
import { MAX_ROLLOUT_BYTES, rolloutBytesPerDecision, rolloutMemoryProblem } from './rollout-memory';

const SIZES = ['task=pick-cube', 'policy.n_obs_steps=1', 'policy.denoise_steps=4', 'policy.horizon=8', 'policy.n_action_steps=4'];

describe('the rollout memory limit', () => {
  it('counts one observation\'s camera images per decision, as uint8', () => {
    const rgb = applyOverrides(defaultConfig(), [...SIZES, 'env.obs_type=rgb', 'env.camera=front,wrist', 'env.image_size=64']);
    // pick-cube beside images: 15 proprioception floats; chain (K+1)·H·A = 5·8·4 = 160; mask K = 4; log-prob units ≤ Ta·A = 16; 7 per-decision floats.
    // 4·(15 + 160 + 4 + 16 + 7) + 3 flags = 811 bytes, plus 2 cameras × 64 × 64 × 3 = 24,576 image bytes.
    expect(rolloutBytesPerDecision(rgb)).toBe(811 + 24_576);
    const rgbd = applyOverrides(rgb, ['env.obs_type=rgbd']);
    // A depth byte per pixel: 2 × 64 × 64 × 4 = 32,768.
    expect(rolloutBytesPerDecision(rgbd)).toBe(811 + 32_768);
  });

  it('refuses a run whose images would not fit, naming num_envs and env.steps_per_iteration', () => {
    const big = applyOverrides(defaultConfig(), [...SIZES, 'env.obs_type=rgb', 'env.camera=front,wrist', 'env.image_size=512', 'num_envs=256', 'env.steps_per_iteration=64', 'ppo.minibatch_size=64']);
    // 2 × 512 × 512 × 3 = 1,572,864 image bytes + 811 per decision; 256 × 64 = 16,384 decisions ≈ 24 GiB.
    const perDecision = 811 + 1_572_864;
    expect(rolloutBytesPerDecision(big)).toBe(perDecision);
    expect(rolloutMemoryProblem(big, 256 * 64)).toBe(
      `num_envs × env.steps_per_iteration (256 × 64 = 16384 decisions) needs a ${((16_384 * perDecision) / 2 ** 30).toFixed(1)} GiB rollout buffer (${perDecision} bytes per decision), `
      + `over the 2 GiB one run may hold; lower either so that their product is at most ${Math.floor(MAX_ROLLOUT_BYTES / perDecision)}`,
    );
    expect(listConfigProblems(big).map((problem) => problem.field)).toContain('num_envs');
    // The same batch of state observations fits easily.
    expect(rolloutMemoryProblem(applyOverrides(big, ['env.obs_type=state']), 256 * 64)).toBeNull();
  });
});
