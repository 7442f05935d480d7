import * as tf from '@tensorflow/tfjs';
import { DEFAULT_BC_LOSS_OPTIONS, bcTrainStep, drawBcInputs, validateBcLossOptions, type BcLossOptions } from '../flow/bc-loss';
import { ShapeError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import type { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { sampledMinibatch } from '../rl/minibatches';
import { RowTable } from '../rl/row-table';
import { checkBcLoopOptions, runBcSteps, type BcLoopOptions } from '../rl/bc-step-loop';

/** Stage-2 samples (demo steps and rollout decisions) with their advantage weights. */
export interface WeightedSamples {
  size: number;
  /** [S, nObs·obsDim] normalized stacked observation. */
  obs: Float32Array;
  /** [S, H, A] normalized action chunk. */
  actions: Float32Array;
  /** [S] loss weight, mean 1. */
  weights: Float32Array;
  /** [S] 1 where the weight was capped at w_max. */
  clipped: Uint8Array;
}

export interface WeightedBcOptions extends Omit<BcLoopOptions, 'resume'> {
  /** Called every `logEvery` steps with the window's means (losses/weighted_bc, advantages/weight_*). */
  onProgress?: (step: number, record: MetricRecord) => void;
}

/** Running sums of one progress window. */
class Window {
  loss = 0;
  steps = 0;
  weight = 0;
  weightMax = 0;
  clipped = 0;
  rows = 0;

  add(loss: number, samples: WeightedSamples, rows: Int32Array): void {
    this.loss += loss;
    this.steps++;
    for (const row of rows) {
      this.weight += samples.weights[row];
      this.weightMax = Math.max(this.weightMax, samples.weights[row]);
      this.clipped += samples.clipped[row];
    }
    this.rows += rows.length;
  }

  record(): MetricRecord {
    return {
      'losses/weighted_bc': this.loss / this.steps,
      'advantages/weight_mean': this.weight / this.rows,
      'advantages/weight_max': this.weightMax,
      'advantages/weight_clipped': this.clipped / this.rows,
    };
  }
}

/**
 * Advantage-weighted flow-matching BC (DESIGN.md §12 "Stage 2", AW-ShortCut): stage 1's loop
 * (Adam on the encoder and velocity net, uniform minibatches, the shortcut fraction, EMA weights
 * kept at the end), with each row's loss multiplied by its weight (bcFlowLoss `rowWeights`).
 */
export async function trainWeightedBc(policy: FlowPolicy, samples: WeightedSamples, options: WeightedBcOptions): Promise<{ finalLoss: number }> {
  checkBcLoopOptions(options);
  const bcOptions: BcLossOptions = { ...DEFAULT_BC_LOSS_OPTIONS, shortcutFraction: options.shortcutFraction };
  validateBcLossOptions(bcOptions, policy);
  const { horizon, actionDim } = policy.options;
  const chunkSize = horizon * actionDim;
  if (samples.size < 1 || samples.actions.length !== samples.size * chunkSize || samples.weights.length !== samples.size || samples.clipped.length !== samples.size) {
    throw new ShapeError('samples', `stage-2 samples must hold ${samples.size} chunks [${horizon}, ${actionDim}], weights and clip flags; got ${samples.actions.length / chunkSize}, ${samples.weights.length} and ${samples.clipped.length}`);
  }
  const sampleTable = new RowTable(samples.size, {
    state: { values: samples.obs, rowShape: [samples.obs.length / samples.size] },
    actions: { values: samples.actions, rowShape: [horizon, actionDim] },
    weights: { values: samples.weights, rowShape: [] },
  });
  const rng = createRng(options.seed);
  let window = new Window();
  let finalLoss = NaN;
  await runBcSteps(policy, options, {
    step: async (optimizer) => {
      const minibatch = sampledMinibatch(sampleTable, rng, options.batchSize);
      const { state, actions, weights } = minibatch.tensors();
      try {
        const result = await bcTrainStep(policy, optimizer, { state }, actions, drawBcInputs(minibatch.rows.length, horizon, actionDim, bcOptions, rng), weights);
        window.add(result.loss, samples, minibatch.rows);
      } finally {
        tf.dispose([state, actions, weights]);
      }
    },
    flush: (step) => {
      const record = window.record();
      finalLoss = record['losses/weighted_bc']!;
      options.onProgress?.(step, record);
      window = new Window();
    },
  });
  return { finalLoss };
}
