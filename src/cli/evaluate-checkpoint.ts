/**
 * Deterministic evaluation (DESIGN.md §4, §16: each policy family's deterministic actor) on `episodes` consecutive reset seeds, in batches
 * of side-by-side envs in this thread (core's evaluateInBatches, which the recipe's stages also
 * use, so the summary they store in a checkpoint is exactly what `npm run eval` reports for it).
 * A `.onnx` export runs the same loop through onnxruntime-node, with the same x_0 draws (and, for
 * a camera policy, the same env images fed to its images input).
 */
import type { RunConfig } from '../core/config';
import { bundleActor, type EvalActor } from '../core/rl/evaluate';
import { evaluateInBatches, type BatchedEvalOptions, type BatchedEvaluation } from '../core/rl/evaluate-batches';
import type { PolicyBundle } from '../core/policy/policy-bundle';
import type { PeerFileArgs } from './peer-files';
import { loadRunCheckpoint, openEvalEnv } from './run-setup';

export { EVAL_DEFAULTS } from '../core/rl/evaluate';

/** What `npm run eval` reports. */
export type CheckpointEvaluation = BatchedEvaluation;
export type EvaluateOptions = BatchedEvalOptions;

/** Evaluates a live policy bundle; the bundle stays the caller's. */
export async function evaluateBundle(bundle: PolicyBundle, config: RunConfig, options: EvaluateOptions): Promise<CheckpointEvaluation> {
  return evaluateActorInBatches(bundleActor(bundle, config), config, options);
}

/** Evaluates any implementation of the deterministic policy with envs in this thread (core's evaluateInBatches). */
export async function evaluateActorInBatches(actor: EvalActor, config: RunConfig, options: EvaluateOptions): Promise<CheckpointEvaluation> {
  return evaluateInBatches(actor, config, options, (count) => openEvalEnv(config, count));
}

/** True for a path evaluated through onnxruntime (an exported policy) rather than tfjs. */
export function isOnnxPath(path: string): boolean {
  return path.toLowerCase().endsWith('.onnx');
}

/** Evaluates a `.flowtune` checkpoint (or a ReinFlow or DPPO `.pt`, with `peer`) with tfjs, or a `.onnx` export with onnxruntime-node. */
export async function evaluateCheckpoint(path: string, parsed: RunConfig, overrides: readonly string[], options: EvaluateOptions, peer?: PeerFileArgs): Promise<CheckpointEvaluation> {
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
  // The file is read once and its header parsed once; its family gives the deterministic actor.
  const { policy, config } = loadRunCheckpoint(path, parsed, overrides, peer);
  try {
    return await evaluateActorInBatches(policy.evalActor(config), config, options);
  } finally {
    policy.dispose();
  }
}
