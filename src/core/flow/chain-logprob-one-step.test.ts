import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { chainLogProb, chainLogProbAllSteps, recomputesOneStep, type ChainLogProbOptions, type ChainLogProbResult } from './chain-logprob';
import { LOGPROB_TYPES, reduceLogProb } from './logprob-reduce';
import { sampleActions } from './sampler';
import type { SamplerOptions } from './sampling-options';

// DESIGN.md §3 "Cost": a hybrid chain's density lives on one step, so its recompute needs one
// velocity evaluation at the stored x_k, t_k. These tests hold that path to the K-step one.
const [H, A, OBS, BATCH, K] = [4, 2, 5, 9, 4];
const architecture = { obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [8], noiseHidden: [8] };
const bounds = { stdMin: 0.05, stdMax: 0.3 };
let policy: FlowPolicy;
let state: tf.Tensor2D;

beforeAll(async () => {
  await useNodeBackend('wasm');
  policy = new FlowPolicy({ ...architecture, valueOn: 'obs', noiseHead: true }, 5);
  state = tf.tensor2d(createRng(3).fillNormal(new Float32Array(BATCH * OBS)), [BATCH, OBS]);
});
afterAll(() => {
  policy.dispose();
  state.dispose();
});

const SAMPLERS: SamplerOptions[] = [
  { method: 'sde', mode: 'hybrid', steps: K, level: 0.7 },
  { method: 'cps', mode: 'hybrid', steps: K, level: 0.6 },
  { method: 'noise', mode: 'hybrid', steps: K, level: 0, bounds },
  // The stochastic step's mean clamped to [−0.3, 0.3] (policy.denoised_clamp), in sampling and in the one-step recompute.
  { method: 'sde', mode: 'hybrid', steps: K, level: 0.7, denoisedClamp: 0.3 },
];

async function stored(sampler: SamplerOptions, seed: number) {
  const result = await sampleActions(policy, { state }, sampler, createRng(seed));
  return {
    result,
    chains: tf.tensor4d(result.chains, [BATCH, K + 1, H, A]),
    mask: tf.tensor2d(result.denoiseInds, [BATCH, K]),
  };
}

async function read(out: ChainLogProbResult): Promise<{ logProb: Float32Array; entropy: Float32Array; values: Float32Array }> {
  const [logProb, entropy, values] = await Promise.all([out.logProb.data(), out.entropy.data(), out.values.data()]);
  tf.dispose([out.logProb, out.entropy, out.values]);
  return { logProb: logProb as Float32Array, entropy: entropy as Float32Array, values: values as Float32Array };
}

describe('one-step recompute of hybrid chains (DESIGN.md §3 "Cost")', () => {
  test('is taken for hybrid chains with value_on obs, and not for joint, ode or value_on expert', () => {
    expect(recomputesOneStep(policy, SAMPLERS[0])).toBe(true);
    expect(recomputesOneStep(policy, { ...SAMPLERS[0], mode: 'joint' })).toBe(false);
    expect(recomputesOneStep(policy, { method: 'ode', mode: 'hybrid', steps: K, level: 0 })).toBe(false);
    const expert = new FlowPolicy({ ...architecture, valueOn: 'expert' }, 1);
    expect(recomputesOneStep(expert, SAMPLERS[0])).toBe(false);
    expert.dispose();
  });

  test('runs the velocity net once per recompute instead of K times', async () => {
    const { chains, mask } = await stored(SAMPLERS[0], 2);
    const original = policy.velocity.bind(policy);
    let calls = 0;
    policy.velocity = (...args) => {
      calls++;
      return original(...args);
    };
    try {
      const options: ChainLogProbOptions = { ...SAMPLERS[0], logprobType: 'chunk', nActionSteps: H, envActionDim: A };
      await read(chainLogProb(policy, { state }, chains, mask, options));
      expect(calls).toBe(1);
      calls = 0;
      await read(chainLogProbAllSteps(policy, { state }, chains, mask, options));
      expect(calls).toBe(K);
    } finally {
      policy.velocity = original;
      tf.dispose([chains, mask]);
    }
  });

  test('gives the K-step log-prob (bit for bit on wasm), entropy and values, and the stored log-prob, for every method and reduction', async () => {
    for (const [index, sampler] of SAMPLERS.entries()) {
      const { result, chains, mask } = await stored(sampler, 10 + index);
      for (const logprobType of LOGPROB_TYPES) {
        const options: ChainLogProbOptions = { ...sampler, logprobType, nActionSteps: 3, envActionDim: 1 };
        const oneStep = await read(chainLogProb(policy, { state }, chains, mask, options));
        const allSteps = await read(chainLogProbAllSteps(policy, { state }, chains, mask, options));
        const reducedStored = tf.tidy(() => reduceLogProb(tf.tensor3d(result.logProbs, [BATCH, H, A]), options));
        const storedData = await reducedStored.data();
        reducedStored.dispose();
        const label = `${sampler.method}/${logprobType}`;
        for (let offset = 0; offset < oneStep.logProb.length; offset++) {
          expect(oneStep.logProb[offset], label).toBe(allSteps.logProb[offset]);
          expect(Math.abs(oneStep.logProb[offset] - storedData[offset]), label).toBeLessThan(1e-5);
        }
        for (let chainIndex = 0; chainIndex < BATCH; chainIndex++) {
          expect(oneStep.entropy[chainIndex]).toBeCloseTo(allSteps.entropy[chainIndex], 6);
          expect(oneStep.values[chainIndex]).toBe(allSteps.values[chainIndex]);
        }
      }
      tf.dispose([chains, mask]);
    }
  });

  test('gives the K-step gradients for every parameter', async () => {
    for (const [index, sampler] of SAMPLERS.entries()) {
      const { chains, mask } = await stored(sampler, 20 + index);
      const options: ChainLogProbOptions = { ...sampler, logprobType: 'chunk', nActionSteps: H, envActionDim: A };
      const variables = [...policy.namedVariables().values()];
      // A PPO-like scalar: log-prob, entropy and values all carry gradient.
      const objective = (recompute: typeof chainLogProb) => () => {
        const out = recompute(policy, { state }, chains, mask, options);
        return tf.addN([tf.mean(out.logProb), tf.mul(tf.mean(out.entropy), 0.3), tf.mean(tf.square(out.values))]) as tf.Scalar;
      };
      const oneStep = tf.variableGrads(objective(chainLogProb), variables);
      const allSteps = tf.variableGrads(objective(chainLogProbAllSteps), variables);
      expect((await oneStep.value.data())[0]).toBeCloseTo((await allSteps.value.data())[0], 5);
      let compared = 0;
      for (const [name, grad] of Object.entries(allSteps.grads)) {
        const expected = (await grad.data()) as Float32Array;
        const actual = (await oneStep.grads[name].data()) as Float32Array;
        const scale = Math.max(1e-3, ...Array.from(expected, Math.abs));
        for (let offset = 0; offset < expected.length; offset++) {
          expect(Math.abs(actual[offset] - expected[offset]) / scale, `${sampler.method} ${name}`).toBeLessThan(1e-4);
        }
        compared++;
      }
      // sde and cps leave the noise head out of the graph; noise uses every parameter.
      expect(Object.keys(oneStep.grads).sort()).toEqual(Object.keys(allSteps.grads).sort());
      expect(compared).toBe(sampler.method === 'noise' ? variables.length : variables.filter((v) => !v.name.startsWith('noise_head.')).length);
      tf.dispose([oneStep.value, allSteps.value, ...Object.values(oneStep.grads), ...Object.values(allSteps.grads), chains, mask]);
    }
  });
});
