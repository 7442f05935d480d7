import * as tf from '@tensorflow/tfjs';
import { DEFAULT_BC_LOSS_OPTIONS, bcTrainStep, drawBcInputs, type BcLossOptions } from '../flow/bc-loss';
import { ConfigError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import type { BcDataset } from './bc-dataset';
import { sampledMinibatch } from './minibatches';
import { RowTable } from './row-table';
import { runBcSteps } from './bc-step-loop';

/** Stage 1's defaults (`npm run pretrain` and the studio's demos flow). */
export const PRETRAIN_DEFAULTS = { steps: 3000, batchSize: 256, learningRate: 1e-3, emaDecay: 0.995, shortcutFraction: 0.25 } as const;

export interface PretrainOptions {
  steps: number;
  batchSize: number;
  learningRate: number;
  /** EMA decay of the weights that are kept at the end; 0 = keep the raw weights. */
  emaDecay: number;
  /** Fraction of each batch trained on the shortcut self-consistency target. */
  shortcutFraction: number;
  seed: number;
  /** Called every `logEvery` steps with the mean loss since the last call. */
  onProgress?: (step: number, meanLoss: number) => void;
  logEvery?: number;
  /**
   * Awaited after every step: where a host pauses, evaluates or exports. `averaged` runs its
   * callback with the EMA weights in the policy (the ones kept at the end), then restores the raw ones.
   */
  afterStep?: (step: number, averaged: <T>(use: () => Promise<T>) => Promise<T>) => Promise<void>;
}

/** Throws ConfigError naming the first bad field (steps, batch_size, lr, ema). */
export function checkPretrainOptions(options: Pick<PretrainOptions, 'steps' | 'batchSize' | 'learningRate' | 'emaDecay'>): void {
  const positiveInt = (field: string, value: number) => {
    if (!Number.isInteger(value) || value < 1) throw new ConfigError(field, `${field} must be a positive integer, got ${value}`);
  };
  positiveInt('steps', options.steps);
  positiveInt('batch_size', options.batchSize);
  if (!(options.learningRate > 0)) throw new ConfigError('lr', `lr must be > 0, got ${options.learningRate}`);
  if (!(options.emaDecay >= 0 && options.emaDecay < 1)) throw new ConfigError('ema', `ema must be in [0, 1), got ${options.emaDecay}`);
}

/**
 * Stage-1 flow-matching BC (DESIGN.md §3): Adam on the encoder and velocity net over random
 * minibatches, with an exponential moving average of the weights that replaces them at the end.
 */
export async function pretrainPolicy(policy: FlowPolicy, dataset: BcDataset, options: PretrainOptions): Promise<{ finalLoss: number }> {
  checkPretrainOptions(options);
  const rng = createRng(options.seed);
  const bcOptions: BcLossOptions = { ...DEFAULT_BC_LOSS_OPTIONS, shortcutFraction: options.shortcutFraction };
  const { horizon, actionDim } = policy.options;
  const samples = new RowTable(dataset.size, {
    state: { values: dataset.obs, rowShape: [dataset.obs.length / dataset.size] },
    actions: { values: dataset.actions, rowShape: [horizon, actionDim] },
  });
  let lossSum = 0;
  let lossCount = 0;
  let finalLoss = NaN;
  await runBcSteps(policy, options, {
    step: async (optimizer) => {
      const minibatch = sampledMinibatch(samples, rng, options.batchSize);
      const { state, actions } = minibatch.tensors();
      try {
        const result = await bcTrainStep(policy, optimizer, { state }, actions, drawBcInputs(minibatch.rows.length, horizon, actionDim, bcOptions, rng));
        lossSum += result.loss;
        lossCount++;
      } finally {
        tf.dispose([state, actions]);
      }
    },
    flush: (step) => {
      finalLoss = lossSum / lossCount;
      options.onProgress?.(step, finalLoss);
      lossSum = 0;
      lossCount = 0;
    },
  });
  return { finalLoss };
}
