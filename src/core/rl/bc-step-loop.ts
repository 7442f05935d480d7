import * as tf from '@tensorflow/tfjs';
import { ConfigError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import { readTfAdam, restoreTfAdam, type TfAdamState } from './tf-adam-state';
import { WeightEma } from './weight-ema';

/** Where a BC loop stands after a step: enough, with the policy's raw weights, to continue it exactly. */
export interface BcLoopState {
  step: number;
  optimizer: TfAdamState;
  /** The weight averages by parameter name; empty with EMA decay 0. */
  ema: Map<string, Float32Array>;
}

/** What stages 1 and 2 share about their BC steps (the loop's options, and each stage's minibatches). */
export interface BcLoopOptions {
  steps: number;
  batchSize: number;
  learningRate: number;
  /** EMA decay of the weights that are kept at the end; 0 = keep the raw weights. */
  emaDecay: number;
  /** Fraction of each batch trained on the shortcut self-consistency target. */
  shortcutFraction: number;
  seed: number;
  /** A log window closes every `logEvery` steps (100 when unset) and after the last. */
  logEvery?: number;
  /**
   * Awaited after every step: where a host pauses, evaluates or exports. `averaged` runs its
   * callback with the EMA weights in the policy (the ones kept at the end), then restores the raw ones.
   */
  afterStep?: (step: number, averaged: <T>(use: () => Promise<T>) => Promise<T>, loopState: () => Promise<BcLoopState>) => Promise<void>;
  /** Continue a stopped loop after this state's step (the policy already holds its raw weights). */
  resume?: BcLoopState;
}

/** Throws ConfigError naming the first bad field (steps, batch_size, lr, ema). */
export function checkBcLoopOptions(options: Pick<BcLoopOptions, 'steps' | 'batchSize' | 'learningRate' | 'emaDecay'>): void {
  const positiveInt = (field: string, value: number) => {
    if (!Number.isInteger(value) || value < 1) throw new ConfigError(field, `${field} must be a positive integer, got ${value}`);
  };
  positiveInt('steps', options.steps);
  positiveInt('batch_size', options.batchSize);
  if (!(options.learningRate > 0)) throw new ConfigError('lr', `lr must be > 0, got ${options.learningRate}`);
  if (!(options.emaDecay >= 0 && options.emaDecay < 1)) throw new ConfigError('ema', `ema must be in [0, 1), got ${options.emaDecay}`);
}

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
  options: Pick<BcLoopOptions, 'steps' | 'learningRate' | 'emaDecay' | 'logEvery' | 'afterStep' | 'resume'>,
  hooks: BcStepHooks,
): Promise<void> {
  const optimizer = tf.train.adam(options.learningRate);
  const ema = new WeightEma(policy, options.emaDecay);
  const logEvery = options.logEvery ?? 100;
  const first = (options.resume?.step ?? 0) + 1;
  try {
    if (options.resume) {
      if (!(first <= options.steps)) throw new ConfigError('steps', `steps is ${options.steps}, but the stopped BC already took ${first - 1}`);
      await restoreTfAdam(optimizer, policy, options.resume.optimizer);
      ema.restore(options.resume.ema);
    }
    for (let step = first; step <= options.steps; step++) {
      await hooks.step(optimizer);
      ema.update();
      if (step % logEvery === 0 || step === options.steps) hooks.flush(step);
      await options.afterStep?.(step, (use) => ema.withAverage(use), async () => ({ step, optimizer: await readTfAdam(optimizer, policy), ema: await ema.values() }));
    }
    ema.applyTo();
  } finally {
    ema.dispose();
    optimizer.dispose();
  }
}
