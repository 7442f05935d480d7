import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { odeActions } from '../flow/ode-actions';
import { FlowPolicy, type WeightEntry } from '../policy/flow-policy';
import { embeddingFrequencies } from '../policy/time-embedding';
import { createRng } from '../random';
import { copyPolicy, drawBcNoise, referenceActions } from './bc-reference';
import { bcRegularizerLoss } from './bc-regularizer';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** A tiny state policy: obs 2 (one frame), H = 3, A = 2, encoder [4], velocity MLP [5, 5] (one residual block), t-embedding 4. */
const OPTIONS = {
  obsDim: 2, horizon: 3, actionDim: 2, nObsSteps: 1, velocityHidden: [5, 5], encoderHidden: [4], timeEmbedDim: 4,
  shortcut: true, valueHidden: [], noiseHead: false,
};
const [BATCH, HORIZON, ACTIONS, STEPS] = [3, 3, 2, 2];
/** The env runs Ta = 2 of the 3 positions and reads Ae = 1 of the 2 dims. */
const SLICE = { nActionSteps: 2, envActionDim: 1 };

type Weights64 = Map<string, { shape: number[]; data: Float64Array }>;

const silu = (x: number) => x / (1 + Math.exp(-x));

function dense(weights: Weights64, prefix: string, x: number[]): number[] {
  const kernel = weights.get(`${prefix}.kernel`)!;
  const bias = weights.get(`${prefix}.bias`)!.data;
  const [inputs, outputs] = kernel.shape;
  return Array.from({ length: outputs }, (_, j) => {
    let sum = bias[j];
    for (let i = 0; i < inputs; i++) sum += x[i] * kernel.data[i * outputs + j];
    return sum;
  });
}

/** [sin(1000·t·f_j) | cos(1000·t·f_j)], f_j = exp(−ln(10000)·j/half). */
function embedding(t: number, dim: number): number[] {
  const angles = embeddingFrequencies(dim).map((frequency) => 1000 * t * frequency);
  return [...angles.map(Math.sin), ...angles.map(Math.cos)];
}

/**
 * The deterministic chunk in float64 for one row: features = silu(W_e·obs + b_e); for i = 0..K−1,
 * t = 1 − i/K, δ = 1/K, v = MLP([x, features, emb(t), emb(δ)]) with the residual block, and
 * x ← w0·(x − t·v) + w1·(x + (1 − t)·v) with w0 = 1 − (t − δ), w1 = t − δ, which is x − δ·v.
 */
function chunk64(weights: Weights64, obs: number[], x0: number[]): number[] {
  const features = dense(weights, 'encoder.layers.0', obs).map(silu);
  const delta = 1 / STEPS;
  let x = x0;
  for (let stepIndex = 0; stepIndex < STEPS; stepIndex++) {
    const t = 1 - stepIndex / STEPS;
    let h = dense(weights, 'velocity.input', [...x, ...features, ...embedding(t, 4), ...embedding(delta, 4)]).map(silu);
    const z = dense(weights, 'velocity.blocks.0.dense', h).map(silu);
    h = h.map((value, unit) => value + z[unit]);
    const v = dense(weights, 'velocity.output', h);
    const [w0, w1] = [1 - (t - delta), t - delta];
    x = x.map((value, element) => w0 * (value - t * v[element]) + w1 * (value + (1 - t) * v[element]));
  }
  return x;
}

/** mean over rows, the Ta executed positions and the Ae env dims of (a − a_ref)², in float64. */
function bc64(weights: Weights64, referenceWeights: Weights64, obs: number[][], x0: number[][]): number {
  let sum = 0;
  for (let row = 0; row < BATCH; row++) {
    const a = chunk64(weights, obs[row], x0[row]);
    const reference = chunk64(referenceWeights, obs[row], x0[row]);
    for (let position = 0; position < SLICE.nActionSteps; position++) {
      for (let dim = 0; dim < SLICE.envActionDim; dim++) sum += (a[position * ACTIONS + dim] - reference[position * ACTIONS + dim]) ** 2;
    }
  }
  return sum / (BATCH * SLICE.nActionSteps * SLICE.envActionDim);
}

function toFloat64(weights: Map<string, WeightEntry>): Weights64 {
  return new Map([...weights].map(([name, entry]) => [name, { shape: entry.shape, data: Float64Array.from(entry.data) }]));
}

/** Sets every weight of `policy` to N(0, scale²) from `seed`, so no layer starts at zero. */
async function randomize(policy: FlowPolicy, seed: number, scale: number): Promise<void> {
  const rng = createRng(seed);
  const weights = await policy.getWeights();
  for (const entry of weights.values()) for (let index = 0; index < entry.data.length; index++) entry.data[index] = scale * rng.normal();
  policy.setWeights(weights);
}

describe('BC regularizer through the ODE chain', () => {
  it('matches a float64 reference of its value and of its gradient w.r.t. every policy parameter; the reference gets none', async () => {
    const policy = new FlowPolicy(OPTIONS);
    await randomize(policy, 3, 0.6);
    const reference = copyPolicy(policy);
    // Move the trained policy away from the reference, so the distance and its gradient are not 0.
    const moved = await policy.getWeights();
    const nudge = createRng(8);
    for (const entry of moved.values()) for (let index = 0; index < entry.data.length; index++) entry.data[index] += 0.2 * nudge.normal();
    policy.setWeights(moved);
    const rng = createRng(11);
    const obs = Array.from({ length: BATCH }, () => [rng.normal(), rng.normal()]);
    const x0Tensor = drawBcNoise(rng, BATCH, HORIZON, ACTIONS);
    const x0Flat = Array.from(await x0Tensor.data());
    const x0 = Array.from({ length: BATCH }, (_, row) => x0Flat.slice(row * HORIZON * ACTIONS, (row + 1) * HORIZON * ACTIONS));
    const state = tf.tensor2d(obs.flat(), [BATCH, 2]);
    try {
      const target = referenceActions(reference, { state }, x0Tensor, STEPS);
      const lossOf = () => bcRegularizerLoss(odeActions(policy, { state }, x0Tensor, STEPS), target, SLICE).loss;
      const variables = [...policy.namedVariables().values(), ...reference.namedVariables().values()];
      const { value, grads } = tf.variableGrads(lossOf, variables);
      target.dispose();
      const weights64 = toFloat64(await policy.getWeights());
      const reference64 = toFloat64(await reference.getWeights());
      const expected = bc64(weights64, reference64, obs, x0);
      expect(expected).toBeGreaterThan(1e-3);
      expect(Math.abs((await value.data())[0] - expected)).toBeLessThan(1e-5 * Math.max(1, expected));
      // Only the trained policy's encoder and velocity net feed the loss: no gradient for the reference or the value head.
      const names = new Map([...policy.namedVariables()].map(([name, variable]) => [variable.name, name]));
      const gradNames = Object.keys(grads).map((tfName) => names.get(tfName) ?? `reference:${tfName}`);
      expect(gradNames.filter((name) => name.startsWith('reference:'))).toEqual([]);
      expect(gradNames.sort()).toEqual([...policy.namedVariables().keys()].filter((name) => !name.startsWith('value.')).sort());
      // Central differences in float64, h = 1e-6, element by element.
      const h = 1e-6;
      let checked = 0;
      for (const [tfName, grad] of Object.entries(grads)) {
        const name = names.get(tfName)!;
        const analytic = await grad.data();
        const entry = weights64.get(name)!;
        for (let index = 0; index < entry.data.length; index++) {
          const original = entry.data[index];
          entry.data[index] = original + h;
          const plus = bc64(weights64, reference64, obs, x0);
          entry.data[index] = original - h;
          const minus = bc64(weights64, reference64, obs, x0);
          entry.data[index] = original;
          const numeric = (plus - minus) / (2 * h);
          expect(Math.abs(analytic[index] - numeric), `${name}[${index}]: ${analytic[index]} vs ${numeric}`).toBeLessThan(1e-4 + 1e-3 * Math.abs(numeric));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(150);
      tf.dispose([value, ...Object.values(grads)]);
    } finally {
      tf.dispose([state, x0Tensor]);
      policy.dispose();
      reference.dispose();
    }
  });

  it('copyPolicy keeps the weights it copied while the original trains', async () => {
    const policy = new FlowPolicy(OPTIONS, 2);
    const copy = copyPolicy(policy);
    try {
      const before = await policy.getWeights();
      const kernel = policy.param('velocity.output.kernel');
      kernel.assign(tf.add(kernel, 1));
      const after = await copy.getWeights();
      for (const [name, entry] of before) expect(Array.from(after.get(name)!.data), name).toEqual(Array.from(entry.data));
      expect((await policy.param('velocity.output.kernel').data())[0]).toBeCloseTo(before.get('velocity.output.kernel')!.data[0] + 1, 6);
    } finally {
      policy.dispose();
      copy.dispose();
    }
  });
});
