import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { chainLogProb, type ChainLogProbOptions } from './chain-logprob';
import { LOGPROB_TYPES, reduceLogProb } from './logprob-reduce';
import { sampleActions, type SampleResult } from './sampler';
import { SAMPLE_MODES, type SamplerOptions } from './sampling-options';
import { FLOW_METHODS } from './time-grid';

const [H, A, OBS, BATCH, K] = [3, 2, 4, 5, 3];
const architecture = {
  obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [8], noiseHidden: [8],
};
const bounds = { stdMin: 0.05, stdMax: 0.3 };
let policy: FlowPolicy;
let state: tf.Tensor2D;

beforeAll(async () => {
  await useNodeBackend('wasm');
  policy = new FlowPolicy({ ...architecture, valueOn: 'expert' }, 3);
  state = tf.tensor2d(createRng(1).fillNormal(new Float32Array(BATCH * OBS)), [BATCH, OBS]);
});
afterAll(() => {
  policy.dispose();
  state.dispose();
});

function recompute(result: SampleResult, options: ChainLogProbOptions, target = policy, obs = state) {
  return tf.tidy(() => chainLogProb(
    target,
    { state: obs },
    tf.tensor4d(result.chains, [result.batch, result.steps + 1, H, A]),
    tf.tensor2d(result.denoiseInds, [result.batch, result.steps]),
    options,
  ));
}

describe('log-prob recompute invariant (DESIGN.md §3)', () => {
  async function expectInvariant(target: FlowPolicy): Promise<void> {
    for (const method of FLOW_METHODS) {
      for (const [mode, denoisedClamp] of [...SAMPLE_MODES.map((mode) => [mode, 0] as const), ['joint', 0.3] as const]) {
        const sampler: SamplerOptions = { method, mode, steps: K, level: method === 'cps' ? 0.6 : 0.5, bounds, denoisedClamp };
        const result = await sampleActions(target, { state }, sampler, createRng(17));
        for (const logprobType of LOGPROB_TYPES) {
          const options: ChainLogProbOptions = { ...sampler, logprobType, nActionSteps: 2, envActionDim: 1 };
          const fresh = recompute(result, options, target);
          const stored = tf.tidy(() => reduceLogProb(tf.tensor3d(result.logProbs, [BATCH, H, A]), options));
          const [freshData, storedData, values] = await Promise.all([fresh.logProb.data(), stored.data(), fresh.values.data()]);
          expect(fresh.logProb.shape).toEqual(stored.shape);
          for (let offset = 0; offset < freshData.length; offset++) {
            const ratio = Math.exp(freshData[offset] - storedData[offset]);
            expect(Math.abs(ratio - 1), `${target.options.velocityNet}/${method}/${mode}/clamp ${denoisedClamp}/${logprobType}`).toBeLessThan(1e-5);
          }
          // value_on expert averages hidden features over the same steps, so values reproduce too.
          values.forEach((value, chainIndex) => expect(value).toBeCloseTo(result.values[chainIndex], 5));
          tf.dispose([fresh.logProb, fresh.entropy, fresh.values, stored]);
        }
      }
    }
  }

  test('unchanged weights give ratio 1 for every method × mode × reduction', async () => {
    await expectInvariant(policy);
  });

  test('the same holds for a DiT-X velocity net, whose value_on expert reads its mean action token', async () => {
    const ditx = new FlowPolicy({ ...architecture, valueOn: 'expert', velocityNet: 'ditx', ditxDim: 8, ditxDepth: 2, ditxHeads: 2 }, 4);
    try {
      await expectInvariant(ditx);
    } finally {
      ditx.dispose();
    }
  });

  test('changed weights change the log-prob (the check above can fail)', async () => {
    const sampler: SamplerOptions = { method: 'sde', mode: 'hybrid', steps: K, level: 0.5 };
    const result = await sampleActions(policy, { state }, sampler, createRng(4));
    const other = new FlowPolicy({ ...architecture, valueOn: 'expert' }, 99);
    const options: ChainLogProbOptions = { ...sampler, logprobType: 'chunk', nActionSteps: H, envActionDim: A };
    const fresh = recompute(result, options, other);
    const stored = tf.tidy(() => reduceLogProb(tf.tensor3d(result.logProbs, [BATCH, H, A]), options));
    const difference = tf.tidy(() => tf.max(tf.abs(tf.sub(fresh.logProb, stored))));
    expect((await difference.data())[0]).toBeGreaterThan(1e-3);
    tf.dispose([fresh.logProb, fresh.entropy, fresh.values, stored, difference]);
    other.dispose();
  });
});

describe('entropy', () => {
  test('sde hybrid: 0.5·log(2πe·std_k²) of the stochastic step of each chain; ode chains 0', async () => {
    const sampler: SamplerOptions = { method: 'sde', mode: 'hybrid', steps: 4, level: 0.5 };
    const result = await sampleActions(policy, { state }, sampler, createRng(6));
    const fresh = recompute(result, { ...sampler, logprobType: 'chunk', nActionSteps: 2, envActionDim: 2 });
    const entropy = await fresh.entropy.data();
    // std_k = [0.5, 0.4330127, 0.25, 0.1443376] (K = 4, a = 0.5)
    const stds = [0.5, 0.4330127, 0.25, 0.1443376];
    for (let chainIndex = 0; chainIndex < BATCH; chainIndex++) {
      const stepIndex = Array.from(result.denoiseInds.subarray(chainIndex * 4, chainIndex * 4 + 4)).indexOf(1);
      expect(entropy[chainIndex]).toBeCloseTo(0.5 * Math.log(2 * Math.PI * Math.E * stds[stepIndex] ** 2), 5);
    }
    tf.dispose([fresh.logProb, fresh.entropy, fresh.values]);
    const odeOptions: SamplerOptions = { method: 'ode', mode: 'hybrid', steps: 4, level: 0 };
    const odeResult = await sampleActions(policy, { state }, odeOptions, createRng(6));
    const odeFresh = recompute(odeResult, { ...odeOptions, logprobType: 'chunk', nActionSteps: 2, envActionDim: 2 });
    expect(Array.from(await odeFresh.entropy.data())).toEqual(new Array(BATCH).fill(0));
    tf.dispose([odeFresh.logProb, odeFresh.entropy, odeFresh.values]);
  });

  test('noise joint: mean over stochastic steps and sliced elements of the learned-std entropy', async () => {
    const sampler: SamplerOptions = { method: 'noise', mode: 'joint', steps: 2, level: 0, bounds };
    const result = await sampleActions(policy, { state }, sampler, createRng(8));
    const [ta, ae] = [2, 1];
    // token scores the executed Ta = 2 positions; mean scores the whole horizon H = 3, so its entropy covers all 3.
    for (const [logprobType, positions] of [['token', ta], ['mean', H]] as const) {
      const fresh = recompute(result, { ...sampler, logprobType, nActionSteps: ta, envActionDim: ae });
      const entropy = await fresh.entropy.data();
      for (let chainIndex = 0; chainIndex < BATCH; chainIndex++) {
        let sum = 0;
        for (let stepIndex = 0; stepIndex < 2; stepIndex++) {
          for (let position = 0; position < positions; position++) {
            for (let dim = 0; dim < ae; dim++) {
              const std = result.stds[((chainIndex * 2 + stepIndex) * H + position) * A + dim];
              sum += 0.5 * Math.log(2 * Math.PI * Math.E * std * std);
            }
          }
        }
        expect(entropy[chainIndex], logprobType).toBeCloseTo(sum / (2 * positions * ae), 4);
      }
      tf.dispose([fresh.logProb, fresh.entropy, fresh.values]);
    }
  });
});

describe('gradients and memory', () => {
  async function gradientNorms(method: 'sde' | 'noise', prefix: string): Promise<number[]> {
    const sampler: SamplerOptions = { method, mode: 'hybrid', steps: K, level: 0.5, bounds };
    const result = await sampleActions(policy, { state }, sampler, createRng(2));
    const chains = tf.tensor4d(result.chains, [BATCH, K + 1, H, A]);
    const mask = tf.tensor2d(result.denoiseInds, [BATCH, K]);
    const variables = [...policy.namedVariables()].filter(([name]) => name.startsWith(prefix)).map(([, variable]) => variable);
    const { value, grads } = tf.variableGrads(() => tf.mean(chainLogProb(policy, { state }, chains, mask,
      { ...sampler, logprobType: 'chunk', nActionSteps: H, envActionDim: A }).logProb) as tf.Scalar, variables);
    const norms = await Promise.all(Object.values(grads).map(async (grad) => {
      const data = (await grad.data()) as Float32Array;
      return Math.sqrt(data.reduce((sum, entry) => sum + entry * entry, 0));
    }));
    tf.dispose([value, chains, mask, ...Object.values(grads)]);
    return norms;
  }

  test('sde log-prob gradient w.r.t. the velocity net is finite and nonzero', async () => {
    const norms = await gradientNorms('sde', 'velocity.');
    expect(norms.length).toBe([...policy.namedVariables().keys()].filter((name) => name.startsWith('velocity.')).length);
    for (const norm of norms) expect(Number.isFinite(norm)).toBe(true);
    expect(Math.max(...norms)).toBeGreaterThan(0);
    expect(norms.filter((norm) => norm > 0).length).toBe(norms.length);
  });

  test('noise-method log-prob gradient w.r.t. the noise head is finite and nonzero', async () => {
    const norms = await gradientNorms('noise', 'noise_head.');
    expect(norms.length).toBeGreaterThan(0);
    for (const norm of norms) {
      expect(Number.isFinite(norm)).toBe(true);
      expect(norm).toBeGreaterThan(0);
    }
  });

  test('repeated recompute and gradient calls leave tf.memory().numTensors unchanged', async () => {
    const sampler: SamplerOptions = { method: 'noise', mode: 'joint', steps: K, level: 0, bounds };
    const result = await sampleActions(policy, { state }, sampler, createRng(2));
    const options: ChainLogProbOptions = { ...sampler, logprobType: 'action', nActionSteps: 2, envActionDim: 2 };
    const run = async () => {
      const fresh = recompute(result, options);
      tf.dispose([fresh.logProb, fresh.entropy, fresh.values]);
      await gradientNorms('sde', 'velocity.');
    };
    await run();
    const before = tf.memory().numTensors;
    for (let repeat = 0; repeat < 3; repeat++) await run();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('bad inputs', () => {
  test('wrong chain, mask and obs shapes throw ShapeError naming the field', () => {
    const options: ChainLogProbOptions = { method: 'sde', mode: 'hybrid', steps: K, level: 0.5, logprobType: 'chunk', nActionSteps: 2, envActionDim: 2 };
    const goodChains = tf.zeros([BATCH, K + 1, H, A]);
    const goodMask = tf.zeros([BATCH, K]);
    const call = (chains: tf.Tensor, mask: tf.Tensor, obs = state as tf.Tensor) => () => chainLogProb(policy, { state: obs }, chains, mask, options);
    const badChains = tf.zeros([BATCH, K, H, A]);
    const badMask = tf.zeros([BATCH, K + 1]);
    const badObs = tf.zeros([BATCH, OBS + 2]);
    expect(call(badChains, goodMask)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'chains' }));
    expect(call(badChains, goodMask)).toThrow(`chains must be [B, K+1, H, A] = [${BATCH}, ${K + 1}, ${H}, ${A}], got [${BATCH}, ${K}, ${H}, ${A}]`);
    expect(call(goodChains, badMask)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'denoiseInds' }));
    expect(call(goodChains, goodMask, badObs)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'obs.state' }));
    expect(() => chainLogProb(policy, { state }, goodChains, goodMask, { ...options, nActionSteps: H + 1 }))
      .toThrow(expect.objectContaining({ name: 'ConfigError', field: 'policy.n_action_steps' }));
    tf.dispose([goodChains, goodMask, badChains, badMask, badObs]);
  });
});

describe('backends', () => {
  test('cpu and wasm agree to 1e-4 with the same seed and weights', async () => {
    const sampler: SamplerOptions = { method: 'sde', mode: 'hybrid', steps: K, level: 0.5 };
    const obsData = createRng(31).fillNormal(new Float32Array(BATCH * OBS));
    const run = async (backend: 'cpu' | 'wasm') => {
      await useNodeBackend(backend);
      const local = new FlowPolicy({ ...architecture, valueOn: 'expert' }, 3);
      const obs = tf.tensor2d(obsData, [BATCH, OBS]);
      try {
        const result = await sampleActions(local, { state: obs }, sampler, createRng(77));
        const fresh = recompute(result, { ...sampler, logprobType: 'chunk', nActionSteps: H, envActionDim: A }, local, obs);
        const logProb = await fresh.logProb.data();
        tf.dispose([fresh.logProb, fresh.entropy, fresh.values]);
        return { result, logProb };
      } finally {
        obs.dispose();
        local.dispose();
      }
    };
    const onCpu = await run('cpu');
    const onWasm = await run('wasm');
    expect(tf.getBackend()).toBe('wasm');
    const compare = (a: ArrayLike<number>, b: ArrayLike<number>) => {
      expect(a.length).toBe(b.length);
      for (let offset = 0; offset < a.length; offset++) expect(Math.abs(a[offset] - b[offset])).toBeLessThan(1e-4);
    };
    compare(onCpu.result.chains, onWasm.result.chains);
    compare(onCpu.result.logProbs, onWasm.result.logProbs);
    compare(onCpu.result.values, onWasm.result.values);
    compare(onCpu.logProb, onWasm.logProb);
    expect(Array.from(onCpu.result.denoiseInds)).toEqual(Array.from(onWasm.result.denoiseInds));
  });
});
