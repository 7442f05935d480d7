import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { ShapeError } from '../errors';
import { createRng } from '../random';
import { gaussianLossOptions, gaussianMinibatchLoss, normalizeMinibatchAdvantages } from './gaussian-loss';
import { GaussianPolicy } from './gaussian-policy';
import { gaussianLogProbRows } from './gaussian-rollout';
import { orthogonalMatrix } from './orthogonal-init';
import { applyOverrides, presetConfig } from '../config';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const policies: GaussianPolicy[] = [];
afterAll(() => policies.forEach((policy) => policy.dispose()));

function policy(seed: number, initLogStd = 0): GaussianPolicy {
  const made = new GaussianPolicy({ kind: 'gaussian', obsDim: 3, actionDim: 2, hidden: [5, 4] }, seed, initLogStd);
  policies.push(made);
  return made;
}

/** Plain float64 forward of the tanh MLP `net` of `weights` for one row. */
function referenceNet(weights: Map<string, { shape: number[]; data: Float32Array }>, net: 'actor' | 'critic', head: string, obs: number[]): number[] {
  let x = obs;
  const layer = (prefix: string, input: number[], activate: boolean) => {
    const kernel = weights.get(`${prefix}.kernel`)!;
    const bias = weights.get(`${prefix}.bias`)!.data;
    const [rows, cols] = kernel.shape;
    return Array.from({ length: cols }, (_, col) => {
      let sum = bias[col];
      for (let row = 0; row < rows; row++) sum += input[row] * kernel.data[row * cols + col];
      return activate ? Math.tanh(sum) : sum;
    });
  };
  x = layer(`${net}.l0`, x, true);
  x = layer(`${net}.l1`, x, true);
  return layer(`${net}.${head}`, x, false);
}

describe('orthogonalMatrix', () => {
  it('has orthonormal columns (tall) or rows (wide), times the gain', () => {
    for (const [rows, cols] of [[6, 3], [3, 6], [4, 4]]) {
      const values = orthogonalMatrix(rows, cols, 2, createRng(rows * 10 + cols));
      const short = Math.min(rows, cols);
      const vector = (index: number) => Array.from({ length: Math.max(rows, cols) }, (_, element) => (rows >= cols ? values[element * cols + index] : values[index * cols + element]));
      for (let a = 0; a < short; a++) {
        for (let b = 0; b < short; b++) {
          const dot = vector(a).reduce((sum, value, element) => sum + value * vector(b)[element], 0);
          // Gain 2: each vector has squared norm 4, and distinct ones are orthogonal.
          expect(dot).toBeCloseTo(a === b ? 4 : 0, 5);
        }
      }
    }
  });
});

describe('GaussianPolicy', () => {
  it('starts as CleanRL initializes: zero biases, log std at its start value, a small mean head', async () => {
    const weights = await policy(1, -0.5).getWeights();
    expect(Array.from(weights.get('actor.log_std')!.data)).toEqual([-0.5, -0.5]);
    expect(weights.get('critic.l0.bias')!.data.every((value) => value === 0)).toBe(true);
    // The mean head's kernel [4, 2] has orthogonal columns of norm 0.01.
    const head = weights.get('actor.mean.kernel')!.data;
    expect(Math.hypot(head[0], head[2], head[4], head[6])).toBeCloseTo(0.01, 6);
  });

  it('computes the mean, value and log-density of a float64 reference', async () => {
    const model = policy(2, 0.3);
    const weights = await model.getWeights();
    // Move the log std and biases off their start so every term is exercised.
    weights.get('actor.log_std')!.data.set([0.3, -0.7]);
    weights.get('actor.mean.bias')!.data.set([0.2, -0.1]);
    model.setWeights(weights);
    const obs = [[0.5, -1, 2], [0, 0.25, -0.5]];
    const actions = [[0.1, 0.9], [-1.2, 0.4]];
    const obsTensor = tf.tensor2d(obs);
    const actionTensor = tf.tensor2d(actions);
    const { logProb, entropy } = model.logProb(obsTensor, actionTensor);
    const values = model.value(obsTensor);
    const [logProbs, entropies, valueData] = [await logProb.data(), await entropy.data(), await values.data()];
    tf.dispose([obsTensor, actionTensor, logProb, entropy, values]);
    const logStd = [0.3, -0.7];
    obs.forEach((row, index) => {
      const mean = referenceNet(weights, 'actor', 'mean', row);
      // log N(x; μ, σ) = −½((x − μ)/σ)² − log σ − ½ log 2π, summed over both dims.
      const expected = actions[index].reduce((sum, x, dim) => sum - 0.5 * ((x - mean[dim]) / Math.exp(logStd[dim])) ** 2 - logStd[dim] - 0.5 * Math.log(2 * Math.PI), 0);
      expect(logProbs[index]).toBeCloseTo(expected, 5);
      // Entropy Σ ½ + ½ log 2π + log σ = 2·1.41894 + 0.3 − 0.7 = 2.43788.
      expect(entropies[index]).toBeCloseTo(1 + Math.log(2 * Math.PI) + 0.3 - 0.7, 5);
      expect(valueData[index]).toBeCloseTo(referenceNet(weights, 'critic', 'out', row)[0], 5);
    });
    // The rollout's float64 log-density of the same rows agrees.
    const means = Float32Array.from(obs.flatMap((row) => referenceNet(weights, 'actor', 'mean', row)));
    const rollout = gaussianLogProbRows(Float32Array.from(actions.flat()), means, Float32Array.from(logStd));
    expect(rollout[0]).toBeCloseTo(logProbs[0], 5);
    expect(rollout[1]).toBeCloseTo(logProbs[1], 5);
  });

  it('refuses weights of another shape, naming the tensor', () => {
    const weights = new Map([['actor.log_std', { shape: [3], data: new Float32Array(3) }]]);
    expect(() => new GaussianPolicy({ kind: 'gaussian', obsDim: 3, actionDim: 2, hidden: [5, 4] }, weights)).toThrow(ShapeError);
  });
});

describe('Gaussian minibatch loss', () => {
  it('normalizes advantages with the unbiased std, as torch.std (hand case)', async () => {
    // [1, 2, 6]: mean 3, unbiased var (4 + 1 + 9)/2 = 7, std 2.64575; (1 − 3)/2.64575 = −0.75593.
    const out = normalizeMinibatchAdvantages(tf.tensor1d([1, 2, 6]));
    const values = await out.data();
    out.dispose();
    expect(values[0]).toBeCloseTo(-2 / Math.sqrt(7), 6);
    expect(values[2]).toBeCloseTo(3 / Math.sqrt(7), 6);
  });

  it('is CleanRL\'s objective on a float64 reference: clipped ratio, clipped value, entropy', async () => {
    const model = policy(4, -0.2);
    const weights = await model.getWeights();
    const obs = [[0.5, -1, 2], [0, 0.25, -0.5], [1, 1, 1]];
    const actions = [[0.1, 0.9], [-1.2, 0.4], [0.3, -0.3]];
    const logStd = [-0.2, -0.2];
    const newLogProbs = obs.map((row, index) => {
      const mean = referenceNet(weights, 'actor', 'mean', row);
      return actions[index].reduce((sum, x, dim) => sum - 0.5 * ((x - mean[dim]) / Math.exp(logStd[dim])) ** 2 - logStd[dim] - 0.5 * Math.log(2 * Math.PI), 0);
    });
    // Old log-probs set so the ratios are e^0.5 = 1.6487 (clipped to 1.2), e^−0.05 = 0.9512 and e^−0.5 = 0.6065 (clipped to 0.8).
    const oldLogProbs = newLogProbs.map((value, index) => value - [0.5, -0.05, -0.5][index]);
    const advantages = [1, -2, 4];
    const returns = [0.5, -0.5, 2];
    const oldValues = [0.4, 0.3, 2.5];
    const config = applyOverrides(presetConfig('gaussian-ppo'), ['task=hopper', 'ppo.entropy_coef=0.01']);
    const options = gaussianLossOptions(config, false);
    const tensors = {
      obs: tf.tensor2d(obs), actions: tf.tensor2d(actions), oldLogProbs: tf.tensor1d(oldLogProbs),
      advantages: tf.tensor1d(advantages), returns: tf.tensor1d(returns), oldValues: tf.tensor1d(oldValues),
    };
    const { loss, metrics } = gaussianMinibatchLoss(model, tensors, options);
    const lossValue = (await loss.data())[0];
    const klValue = (await metrics['losses/approx_kl']!.data())[0];
    tf.dispose([loss, ...Object.values(metrics), ...Object.values(tensors)]);

    // Advantages [1, −2, 4]: mean 1, unbiased std sqrt((0 + 9 + 9)/2) = 3 → [0, −1, 1].
    const normalized = [0, -1, 1];
    const ratios = newLogProbs.map((value, index) => Math.exp(value - oldLogProbs[index]));
    const policyLoss = ratios.reduce((sum, ratio, index) => {
      const clipped = Math.min(1.2, Math.max(0.8, ratio));
      return sum + Math.max(-normalized[index] * ratio, -normalized[index] * clipped);
    }, 0) / 3;
    const valueLoss = obs.reduce((sum, row, index) => {
      const value = referenceNet(weights, 'critic', 'out', row)[0];
      const clippedValue = oldValues[index] + Math.min(0.2, Math.max(-0.2, value - oldValues[index]));
      return sum + 0.5 * Math.max((value - returns[index]) ** 2, (clippedValue - returns[index]) ** 2);
    }, 0) / 3;
    const entropy = 1 + Math.log(2 * Math.PI) - 0.4;
    expect(lossValue).toBeCloseTo(policyLoss + 0.5 * valueLoss - 0.01 * entropy, 5);
    // approx_kl = mean((r − 1) − log r) over the three rows.
    expect(klValue).toBeCloseTo(ratios.reduce((sum, ratio) => sum + (ratio - 1) - Math.log(ratio), 0) / 3, 5);
  });
});
