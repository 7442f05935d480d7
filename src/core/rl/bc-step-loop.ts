import * as tf from '@tensorflow/tfjs';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PretrainOptions } from './pretrain';
import { WeightEma } from './weight-ema';

/** What one BC stage does per step and per log window; the loop owns the optimizer and the EMA. */
export interface BcStepHooks {
  /** One gradient step (its minibatch drawn and disposed by the caller). */
  step(optimizer: tf.Optimizer): Promise<void>;
  /** Closes a log window: called every `logEvery` steps and after the last. */
  flush(step: number): void;
}

/**
 * The loop stages 1 and 2 share (DESIGN.md §3 "Stage 1", §12 "Stage 2"): Adam on the policy,
 * an EMA of its weights that replaces them at the end, a log window every `logEvery` steps,
 * and the host's `afterStep` hook with the averaged weights on offer.
 */
export async function runBcSteps(
  policy: FlowPolicy,
  options: Pick<PretrainOptions, 'steps' | 'learningRate' | 'emaDecay' | 'logEvery' | 'afterStep'>,
  hooks: BcStepHooks,
): Promise<void> {
  const optimizer = tf.train.adam(options.learningRate);
  const ema = new WeightEma(policy, options.emaDecay);
  const logEvery = options.logEvery ?? 100;
  try {
    for (let step = 1; step <= options.steps; step++) {
      await hooks.step(optimizer);
      ema.update();
      if (step % logEvery === 0 || step === options.steps) hooks.flush(step);
      await options.afterStep?.(step, (use) => ema.withAverage(use));
    }
    ema.applyTo();
  } finally {
    ema.dispose();
    optimizer.dispose();
  }
}
