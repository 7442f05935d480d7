import { describe, expect, it } from 'vitest';
import { buildDenoiseMask, validateSamplerOptions } from '../flow/sampling-options';
import { sdeSigmas, stepCoefficients, timeGrid } from '../flow/time-grid';
import { validateNoiseBounds } from '../policy/noise-head';
import { createRng } from '../random';
import { samplerOptionsAt } from '../rl/policy-setup';
import { defaultConfig } from './access';
import { noiseAt } from './noise-at';
import type { RunConfig } from './run-config';
import { listConfigProblems } from './validate';

const METHODS = ['ode', 'sde', 'cps', 'noise'] as const;
const DECAYS = ['constant', 'linear', 'exponential', 'cosine'] as const;
const MODES = ['hybrid', 'joint'] as const;
/** Edge values of a and of level_min: zero, just above it, the cps limit on either side, the table's maximum. */
const LEVELS = [0, 1e-9, 0.5, 1, 1.000001, 5];
const LEVEL_MINS = [0, 1e-9, 0.1, 1, 5];
const STEPS = [1, 2, 4];
/** [std_min, std_max] pairs at and inside the table's edges. */
const STDS: Array<[number, number]> = [[1e-9, 1e-9], [0.001, 2], [2, 2]];
const DECAY_STEPS = 1000;
const HOLD_STEPS = 200;
/** Env steps at the start, in the hold, halfway, at the end of the decay and long after. */
const ENV_STEPS = [0, 100, HOLD_STEPS + DECAY_STEPS / 2, HOLD_STEPS + DECAY_STEPS, 10 ** 9];

function* gridConfigs(): Generator<RunConfig> {
  const base = defaultConfig();
  for (const method of METHODS) for (const decay of DECAYS) for (const mode of MODES) for (const level of LEVELS)
    for (const levelMin of LEVEL_MINS) for (const steps of STEPS) for (const [stdMin, stdMax] of STDS) {
      yield {
        ...base,
        policy: { ...base.policy, denoise_steps: steps },
        noise: {
          ...base.noise, method, decay, mode, level, level_min: levelMin, std_min: stdMin, std_max: stdMax,
          decay_steps: DECAY_STEPS, hold_steps: HOLD_STEPS,
        },
      };
    }
}

/** Everything the sampler and the schedules do with a config's noise at one point of the run, for a batch of 3 chains. */
function runNoiseFunctions(config: RunConfig, envSteps: number): void {
  const noise = noiseAt(config, envSteps);
  const options = samplerOptionsAt(config, envSteps, 'train');
  validateSamplerOptions(options);
  timeGrid(options.steps);
  const { std } = stepCoefficients(options.method, options.steps, options.level);
  if (options.method === 'sde') sdeSigmas(options.steps, options.level);
  if (options.method === 'noise') validateNoiseBounds(options.bounds!);
  buildDenoiseMask(options, 3, createRng(envSteps));
  validateSamplerOptions(samplerOptionsAt(config, envSteps, 'eval'));
  // The noise in force is exploration noise the chain can score: a stochastic step has std > 0.
  if ((options.method === 'sde' || options.method === 'cps') && !(Math.max(...std) > 0)) throw new Error(`no step has noise: std [${std.join(', ')}]`);
  if (options.method === 'noise' && !(noise.stdMax >= noise.stdMin)) throw new Error(`σ_max ${noise.stdMax} is below σ_min ${noise.stdMin}`);
}

describe('validateConfig and the sampler agree', () => {
  it('every config that validates, over method × decay × mode × level × level_min × K × σ bounds, samples at every point of its run', () => {
    let accepted = 0;
    let refused = 0;
    const failures: string[] = [];
    for (const config of gridConfigs()) {
      if (listConfigProblems(config).length > 0) {
        refused++;
        continue;
      }
      accepted++;
      for (const envSteps of ENV_STEPS) {
        try {
          runNoiseFunctions(config, envSteps);
        } catch (error) {
          const { method, decay, mode, level, level_min: levelMin, std_min: stdMin, std_max: stdMax } = config.noise;
          failures.push(`${method} ${decay} ${mode} a=${level} a_min=${levelMin} K=${config.policy.denoise_steps} σ=[${stdMin}, ${stdMax}] `
            + `at ${envSteps} env steps: ${(error as Error).message}`);
        }
      }
    }
    expect(failures.slice(0, 5), `${failures.length} accepted configs failed in the sampler`).toEqual([]);
    // The grid holds both kinds, so neither half of the claim is empty.
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });
});
