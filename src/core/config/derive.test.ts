import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { defaultConfig } from './access';
import { deriveSizes } from './derive';
import { applyOverrides } from './overrides';

describe('deriveSizes', () => {
  it('computes the default sizes by hand', () => {
    const sizes = deriveSizes(defaultConfig());
    // 16 envs × 32 decisions = 512 decisions; 512 / 64 = 8 minibatches; 4 epochs × 8 = 32 updates.
    // 512 decisions × 4 env steps = 2048 env steps; ceil(1e6 / 2048) = ceil(488.28) = 489 iterations.
    // critic warm-up: ceil(5000 / 2048) = 3 iterations; eval every 10 → floor(489 / 10) = 48 evaluations.
    expect(sizes).toEqual({
      batchSize: 512, minibatchesPerEpoch: 8, updatesPerIteration: 32, envStepsPerIteration: 2048,
      iterations: 489, totalEnvSteps: 489 * 2048, criticWarmupIterations: 3, evaluations: 48,
    });
  });

  it('takes the smaller of iterations and the env-step budget, ignoring a 0', () => {
    const base = defaultConfig();
    expect(deriveSizes(applyOverrides(base, ['iterations=10'])).iterations).toBe(10);
    expect(deriveSizes(applyOverrides(base, ['iterations=1000'])).iterations).toBe(489);
    expect(deriveSizes(applyOverrides(base, ['iterations=7', 'total_env_steps=0'])).iterations).toBe(7);
    expect(deriveSizes(applyOverrides(base, ['iterations=0', 'total_env_steps=0'])).iterations).toBe(0);
    expect(deriveSizes(applyOverrides(base, ['eval.every=0'])).evaluations).toBe(0);
  });

  it('matches a plain reference on random configs', () => {
    const seed = Date.now() % 1_000_000;
    const rng = createRng(seed);
    for (let trial = 0; trial < 50; trial++) {
      const numEnvs = 1 + rng.int(64);
      const steps = 1 + rng.int(200);
      const minibatch = 1 + rng.int(numEnvs * steps);
      const chunk = 1 + rng.int(16);
      const epochs = 1 + rng.int(10);
      const budget = rng.int(5_000_000);
      const iterations = rng.int(3000);
      const warmup = rng.int(100_000);
      const config = applyOverrides(defaultConfig(), [
        `num_envs=${numEnvs}`, `env.steps_per_iteration=${steps}`, `ppo.minibatch_size=${minibatch}`,
        `policy.horizon=16`, `policy.n_action_steps=${chunk}`, `ppo.epochs=${epochs}`, `total_env_steps=${budget}`,
        `iterations=${iterations}`, `ppo.critic_warmup_steps=${warmup}`,
      ]);
      const sizes = deriveSizes(config);
      const batch = numEnvs * steps;
      const envSteps = batch * chunk;
      let expectedIterations = 0;
      if (iterations > 0 && budget > 0) expectedIterations = Math.min(iterations, Math.ceil(budget / envSteps));
      else if (iterations > 0) expectedIterations = iterations;
      else if (budget > 0) expectedIterations = Math.ceil(budget / envSteps);
      const context = `seed ${seed} trial ${trial}`;
      expect(sizes.batchSize, context).toBe(batch);
      expect(sizes.minibatchesPerEpoch, context).toBe(Math.floor(batch / minibatch));
      expect(sizes.updatesPerIteration, context).toBe(epochs * Math.floor(batch / minibatch));
      expect(sizes.envStepsPerIteration, context).toBe(envSteps);
      expect(sizes.iterations, context).toBe(expectedIterations);
      expect(sizes.totalEnvSteps, context).toBe(expectedIterations * envSteps);
      expect(sizes.criticWarmupIterations, context).toBe(Math.ceil(warmup / envSteps));
    }
  });
});
