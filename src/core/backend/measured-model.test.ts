import { describe, expect, it } from 'vitest';
import { tinyConfig } from '../rl/fixtures/test-support';
import { measurementKey } from './measured-model';

describe('measurementKey', () => {
  it('changes with the model and the batch sizes, not with the noise level or the learning rate', () => {
    const base = measurementKey(tinyConfig(), undefined);
    expect(measurementKey(tinyConfig(['noise.level=0.3', 'noise.std_max=0.4', 'actor_lr=0.001']), undefined)).toBe(base);
    expect(measurementKey(tinyConfig(['num_envs=8', 'advantages.group_size=2']), undefined)).not.toBe(base);
    expect(measurementKey(tinyConfig(['ppo.minibatch_size=8']), undefined)).not.toBe(base);
    expect(measurementKey(tinyConfig(['policy.hidden=64,64']), undefined)).not.toBe(base);
    expect(measurementKey(tinyConfig(['noise.method=noise']), undefined)).not.toBe(base);
  });
});
