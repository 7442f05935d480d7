/**
 * Deterministic ODE evaluation (DESIGN.md §4) on `episodes` consecutive reset seeds, in batches
 * of side-by-side envs. Shared by `npm run eval`, `npm run results` and `npm run pretrain`, so
 * the summary pretraining stores in a checkpoint is exactly what `npm run eval` reports for it.
 * A `.onnx` export runs the same loop through onnxruntime-node, with the same x_0 draws.
 */
import type { RunConfig } from '../core/config';
import { createRng } from '../core/random';
import { bundleActor, evaluateActor, type EvalActor } from '../core/rl/evaluate';
import type { PolicyBundle } from '../core/policy/policy-bundle';
import { loadRunCheckpoint, openEvalEnv } from './run-setup';

export { EVAL_DEFAULTS } from '../core/rl/evaluate';

export interface CheckpointEvaluation {
  task: string;
  episodes: number;
  success_rate: number;
  mean_return: number;
  mean_length: number;
}

export interface EvaluateOptions {
  episodes: number;
  /** Episode e resets with seed + e; batch b draws x_0 from the stream seeded seed + (first episode of b). */
  seed: number;
  batch: number;
  onBatch?: (done: number, successes: number) => void;
}

/** Evaluates a live policy bundle; the bundle stays the caller's. */
export async function evaluateBundle(bundle: PolicyBundle, config: RunConfig, options: EvaluateOptions): Promise<CheckpointEvaluation> {
  return evaluateActorInBatches(bundleActor(bundle, config), config, options);
}

/** Evaluates any implementation of the deterministic policy; batch b draws x_0 from the stream seeded seed + its first episode. */
export async function evaluateActorInBatches(actor: EvalActor, config: RunConfig, options: EvaluateOptions): Promise<CheckpointEvaluation> {
  let successes = 0;
  let returns = 0;
  let lengths = 0;
  for (let first = 0; first < options.episodes; first += options.batch) {
    const count = Math.min(options.batch, options.episodes - first);
    const env = await openEvalEnv(config, count);
    try {
      const seeds = Array.from({ length: count }, (_, index) => options.seed + first + index);
      const summary = await evaluateActor(actor, env, config, seeds, createRng(options.seed + first));
      successes += summary.successRate * count;
      returns += summary.meanReturn * count;
      lengths += summary.meanLength * count;
      options.onBatch?.(first + count, Math.round(successes));
    } finally {
      await env.dispose();
    }
  }
  return {
    task: config.task,
    episodes: options.episodes,
    success_rate: successes / options.episodes,
    mean_return: returns / options.episodes,
    mean_length: lengths / options.episodes,
  };
}

/** True for a path evaluated through onnxruntime (an exported policy) rather than tfjs. */
export function isOnnxPath(path: string): boolean {
  return path.toLowerCase().endsWith('.onnx');
}

/** Evaluates a `.flowtune` checkpoint with tfjs, or a `.onnx` export with onnxruntime-node. */
export async function evaluateCheckpoint(path: string, parsed: RunConfig, overrides: readonly string[], options: EvaluateOptions): Promise<CheckpointEvaluation> {
  if (isOnnxPath(path)) {
    // Loaded on demand: the commands that share this module never need the native runtime otherwise.
    const { openOnnxPolicy } = await import('./onnx-policy-file');
    const { actor, config } = await openOnnxPolicy(path, parsed, overrides);
    try {
      return await evaluateActorInBatches(actor, config, options);
    } finally {
      await actor.dispose();
    }
  }
  const { loaded, config } = await loadRunCheckpoint(path, parsed, overrides);
  try {
    return await evaluateBundle(loaded.bundle, config, options);
  } finally {
    loaded.bundle.policy.dispose();
  }
}
