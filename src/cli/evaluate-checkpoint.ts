/**
 * Deterministic ODE evaluation of one checkpoint file on `episodes` consecutive reset seeds
 * (DESIGN.md §4), in batches of side-by-side envs. Shared by `npm run eval` and `npm run results`.
 */
import type { RunConfig } from '../core/config';
import { createRng } from '../core/random';
import { evaluatePolicy } from '../core/rl/evaluate';
import { loadRunCheckpoint, openEvalEnv } from './run-setup';

export interface CheckpointEvaluation {
  task: string;
  episodes: number;
  success_rate: number;
  mean_return: number;
  mean_length: number;
}

export interface EvaluateCheckpointOptions {
  episodes: number;
  /** Episode e resets with seed + e; batch b draws x_0 from the stream seeded seed + (first episode of b). */
  seed: number;
  batch: number;
  onBatch?: (done: number, successes: number) => void;
}

export async function evaluateCheckpoint(path: string, parsed: RunConfig, overrides: readonly string[], options: EvaluateCheckpointOptions): Promise<CheckpointEvaluation> {
  const { loaded, config } = await loadRunCheckpoint(path, parsed, overrides);
  let successes = 0;
  let returns = 0;
  let lengths = 0;
  try {
    for (let first = 0; first < options.episodes; first += options.batch) {
      const count = Math.min(options.batch, options.episodes - first);
      const env = await openEvalEnv(config, count);
      try {
        const seeds = Array.from({ length: count }, (_, index) => options.seed + first + index);
        const summary = await evaluatePolicy(loaded.bundle, env, config, seeds, createRng(options.seed + first));
        successes += summary.successRate * count;
        returns += summary.meanReturn * count;
        lengths += summary.meanLength * count;
        options.onBatch?.(first + count, Math.round(successes));
      } finally {
        await env.dispose();
      }
    }
  } finally {
    loaded.bundle.policy.dispose();
  }
  return {
    task: config.task,
    episodes: options.episodes,
    success_rate: successes / options.episodes,
    mean_return: returns / options.episodes,
    mean_length: lengths / options.episodes,
  };
}
