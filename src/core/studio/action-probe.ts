/**
 * Deterministic eval-mode actions of a model: all-ODE chains (DESIGN.md §3 "Eval")
 * from a seeded observation and seeded x_1, so two copies of the same weights give
 * identical actions. Used to check that an exported checkpoint re-imports exactly.
 */
import type { RunConfig } from '../config/run-config';
import { createRng } from '../random';
import { sampleForObs } from '../rl/policy-bundle';
import type { PolicyBundle } from '../policy/policy-bundle';
import { samplerOptionsAt } from '../rl/policy-setup';

/** [H × A] normalized actions of one chain for a seeded observation in [-1, 1]. */
export async function probeEvalActions(bundle: PolicyBundle, config: RunConfig, seed: number): Promise<Float32Array> {
  const { nObsSteps, obsDim } = bundle.policy.options;
  const rng = createRng(seed);
  const normalizedObs = new Float32Array(nObsSteps * obsDim);
  for (let element = 0; element < normalizedObs.length; element++) normalizedObs[element] = 2 * rng.uniform() - 1;
  const sample = await sampleForObs(bundle, normalizedObs, samplerOptionsAt(config, 0, 'eval'), createRng(seed + 1));
  return sample.actions;
}
