/**
 * Deterministic evaluation in the env workers with `npm run eval`'s seeds and x_0 draws
 * (EVAL_DEFAULTS, one batch), so a figure the demos flow stores in a checkpoint can be checked
 * on the command line.
 */
import type { RunConfig } from '../../src/core/config/run-config';
import type { PolicyBundle } from '../../src/core/policy/policy-bundle';
import { createRng } from '../../src/core/random';
import { EVAL_DEFAULTS, evaluatePolicy } from '../../src/core/rl/evaluate';
import { runEnvConfig } from '../../src/core/run/run-env-config';
import type { BatchEnv } from '../../src/core/envs/batch-env';
import type { VectorEnvConfig } from '../../src/core/envs/vector-env-config';

/** What a checkpoint's metadata `eval` holds. */
export type StoredEval = Record<'success_rate' | 'mean_return' | 'mean_length' | 'episodes' | 'seed', number>;

export async function evaluateInWorkers(bundle: PolicyBundle, config: RunConfig, episodes: number, openEnv: (config: VectorEnvConfig) => Promise<BatchEnv>): Promise<StoredEval> {
  const env = await openEnv({ ...runEnvConfig(config, 'eval', false), numEnvs: episodes });
  try {
    const seeds = Array.from({ length: episodes }, (_, episode) => EVAL_DEFAULTS.seed + episode);
    const summary = await evaluatePolicy(bundle, env, config, seeds, createRng(EVAL_DEFAULTS.seed));
    return { success_rate: summary.successRate, mean_return: summary.meanReturn, mean_length: summary.meanLength, episodes, seed: EVAL_DEFAULTS.seed };
  } finally {
    await env.dispose();
  }
}
