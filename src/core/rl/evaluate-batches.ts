/**
 * `npm run eval`'s evaluation (DESIGN.md §4, §10) for any host: deterministic ODE episodes on
 * `episodes` consecutive reset seeds, in batches of side-by-side envs, batch b drawing x_0 from
 * the stream seeded seed + its first episode. The CLI's eval, pretrain and offline, and the
 * studio's demos stages all evaluate through this, so a figure one stores the other reproduces.
 */
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import { createRng } from '../random';
import { evaluateActor, taskHasSuccess, type EvalActor } from './evaluate';

export interface BatchedEvaluation {
  task: string;
  episodes: number;
  /** Absent for a task without a success rule (DESIGN.md §13): mean_return measures it. */
  success_rate?: number;
  mean_return: number;
  mean_length: number;
}

export interface BatchedEvalOptions {
  episodes: number;
  /** Episode e resets with seed + e; batch b draws x_0 from the stream seeded seed + (first episode of b). */
  seed: number;
  batch: number;
  /** After each batch: episodes done, successes among them (undefined without a success rule) and their mean return. */
  onBatch?: (done: number, successes: number | undefined, meanReturn: number) => void;
}

/** Evaluates `actor` with envs from `openEnv(count)` (one per episode of a batch; disposed here). */
export async function evaluateInBatches(
  actor: EvalActor,
  config: RunConfig,
  options: BatchedEvalOptions,
  openEnv: (count: number) => Promise<BatchEnv>,
): Promise<BatchedEvaluation> {
  const hasSuccess = taskHasSuccess(config.task);
  let successes = 0;
  let returns = 0;
  let lengths = 0;
  for (let first = 0; first < options.episodes; first += options.batch) {
    const count = Math.min(options.batch, options.episodes - first);
    const env = await openEnv(count);
    try {
      const seeds = Array.from({ length: count }, (_, index) => options.seed + first + index);
      const summary = await evaluateActor(actor, env, config, seeds, createRng(options.seed + first));
      successes += (summary.successRate ?? 0) * count;
      returns += summary.meanReturn * count;
      lengths += summary.meanLength * count;
      options.onBatch?.(first + count, hasSuccess ? Math.round(successes) : undefined, returns / (first + count));
    } finally {
      await env.dispose();
    }
  }
  return {
    task: config.task,
    episodes: options.episodes,
    ...(hasSuccess ? { success_rate: successes / options.episodes } : {}),
    mean_return: returns / options.episodes,
    mean_length: lengths / options.episodes,
  };
}
