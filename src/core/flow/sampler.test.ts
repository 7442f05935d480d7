import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { chainLogProb } from './chain-logprob';
import { sampleActions, type SampleResult } from './sampler';
import type { SamplerOptions } from './sampling-options';

const [H, A, OBS] = [2, 2, 3];
const tinyArchitecture = {
  obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [8], noiseHidden: [8],
};
let policy: FlowPolicy;

beforeAll(async () => {
  await useNodeBackend('wasm');
  policy = new FlowPolicy(tinyArchitecture, 7);
});
afterAll(() => policy.dispose());

function observations(batch: number, seed: number): Float32Array {
  return createRng(seed).fillNormal(new Float32Array(batch * OBS));
}

/** Velocity of stored chain element `stepIndex` for every chain, as float64 [B, H·A]. */
async function velocityAt(result: SampleResult, obsData: Float32Array, stepIndex: number): Promise<Float64Array> {
  const { batch, steps } = result;
  const elementSize = H * A;
  const x = new Float32Array(batch * elementSize);
  for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
    const start = (chainIndex * (steps + 1) + stepIndex) * elementSize;
    x.set(result.chains.subarray(start, start + elementSize), chainIndex * elementSize);
  }
  const velocity = tf.tidy(() => {
    const features = policy.encode({ state: tf.tensor2d(obsData, [batch, OBS]) });
    const t = tf.fill([batch], 1 - stepIndex / steps) as tf.Tensor1D;
    const d = tf.fill([batch], 1 / steps) as tf.Tensor1D;
    return policy.velocity(tf.tensor3d(x, [batch, H, A]), t, d, features).velocity;
  });
  const data = Float64Array.from(await velocity.data());
  velocity.dispose();
  return data;
}

/** Float64 mean of step i: μ = w0·(x − t·v) + w1·(x + (1 − t)·v), weights written out per method (DESIGN.md §3). */
function referenceStep(method: 'ode' | 'sde' | 'cps', steps: number, level: number, stepIndex: number): { w0: number; w1: number; std: number } {
  const t = 1 - stepIndex / steps;
  const delta = 1 / steps;
  if (method === 'sde') {
    const denominatorTime = stepIndex === 0 ? 1 - 1 / steps : t;
    const sigma = level * Math.sqrt(t / (1 - denominatorTime));
    return { w0: 1 - (t - delta), w1: t - delta - (sigma * sigma * delta) / (2 * t), std: Math.sqrt(delta) * sigma };
  }
  if (method === 'cps') {
    return { w0: 1 - (t - delta), w1: (t - delta) * Math.cos((Math.PI * level) / 2), std: (t - delta) * Math.sin((Math.PI * level) / 2) };
  }
  return { w0: 1 - (t - delta), w1: t - delta, std: 0 };
}

async function sample(batch: number, options: SamplerOptions, seed: number, obsSeed = 1): Promise<{ result: SampleResult; obsData: Float32Array }> {
  const obsData = observations(batch, obsSeed);
  const state = tf.tensor2d(obsData, [batch, OBS]);
  try {
    return { result: await sampleActions(policy, { state }, options, createRng(seed)), obsData };
  } finally {
    state.dispose();
  }
}

describe('sampler means, noise and log-probs against float64', () => {
  for (const method of ['sde', 'cps'] as const) {
    test(`${method} joint: x_{i+1} = μ_i + std_i·ε with ε from the seed, and the joint log-prob`, async () => {
      const [batch, steps, level, seed] = [4, 4, 0.5, 21];
      const { result, obsData } = await sample(batch, { method, mode: 'joint', steps, level }, seed);
      // Replay the RNG: x_0 noise first, then (joint draws no indices) the K step noises.
      const rng = createRng(seed);
      const elementCount = batch * H * A;
      const x0 = rng.fillNormal(new Float32Array(elementCount));
      const epsilon = rng.fillNormal(new Float32Array(steps * elementCount));
      const logProb = new Float64Array(elementCount);
      for (let offset = 0; offset < elementCount; offset++) logProb[offset] = -0.5 * x0[offset] ** 2 - 0.5 * Math.log(2 * Math.PI);
      for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
        const v = await velocityAt(result, obsData, stepIndex);
        const { w0, w1, std } = referenceStep(method, steps, level, stepIndex);
        const stochastic = std > 0;
        for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
          expect(result.denoiseInds[chainIndex * steps + stepIndex]).toBe(stochastic ? 1 : 0);
          for (let element = 0; element < H * A; element++) {
            const base = chainIndex * (steps + 1) * H * A + element;
            const x = result.chains[base + stepIndex * H * A];
            const xNext = result.chains[base + (stepIndex + 1) * H * A];
            const velocity = v[chainIndex * H * A + element];
            const t = 1 - stepIndex / steps;
            const mean = w0 * (x - t * velocity) + w1 * (x + (1 - t) * velocity);
            const offset = chainIndex * H * A + element;
            expect(xNext).toBeCloseTo(mean + std * epsilon[stepIndex * elementCount + offset], 4);
            if (stochastic) logProb[offset] += -((xNext - mean) ** 2) / (2 * std * std) - Math.log(std) - 0.5 * Math.log(2 * Math.PI);
          }
        }
      }
      expect(Array.from(result.chains.subarray(0, H * A))).toEqual(Array.from(x0.subarray(0, H * A)));
      // Joint: the per-element log-prob is averaged over its K + 1 terms, x_0 and every step; cps's
      // deterministic last step is a term that contributes 0 (RLinf divides by K + 1 too).
      const terms = steps + 1;
      for (let offset = 0; offset < elementCount; offset++) expect(result.logProbs[offset]).toBeCloseTo(logProb[offset] / terms, 3);
    });
  }

  test('cps joint: the std-0 last step is one of the K + 1 terms, so the log-ratio is not (K + 1)/K too large', async () => {
    // K = 2, a = 0.5, δ = 1/2, cos(π/4) = sin(π/4) = √2/2 ≈ 0.7071068:
    //   step 0, t = 1:   w0 = 1 − (1 − 1/2) = 0.5, w1 = (1 − 1/2)·cos(π/4) ≈ 0.3535534, std = (1 − 1/2)·sin(π/4) ≈ 0.3535534
    //   step 1, t = 1/2: w1 = (1/2 − 1/2)·cos(π/4) = 0 and std = 0: x_2 = μ_1, a term that contributes 0
    // Per element: logp = (log N(x_0; 0, 1) + log N(x_1; μ_0, std_0²) + 0) / 3 (RLinf), where dividing by the
    // 2 terms that carry a density gives 3/2 = (K + 1)/K times that, and the same factor on the log-ratio.
    const [batch, steps, level, seed] = [3, 2, 0.5, 8];
    const { result, obsData } = await sample(batch, { method: 'cps', mode: 'joint', steps, level }, seed);
    expect(Array.from(result.denoiseInds)).toEqual([1, 0, 1, 0, 1, 0]);
    const [w0, w1, std] = [0.5, 0.5 * Math.SQRT1_2, 0.5 * Math.SQRT1_2];
    const logNormal = (x: number, mean: number, sigma: number) => -((x - mean) ** 2) / (2 * sigma * sigma) - Math.log(sigma) - 0.5 * Math.log(2 * Math.PI);
    const v = await velocityAt(result, obsData, 0);
    // The chain under other weights, for the log-ratio: same x_0 term, another μ_0.
    const other = new FlowPolicy(tinyArchitecture, 99);
    const otherV = tf.tidy(() => {
      const x0 = new Float32Array(batch * H * A);
      for (let chainIndex = 0; chainIndex < batch; chainIndex++) x0.set(result.chains.subarray(chainIndex * 3 * H * A, (chainIndex * 3 + 1) * H * A), chainIndex * H * A);
      const features = other.encode({ state: tf.tensor2d(obsData, [batch, OBS]) });
      return other.velocity(tf.tensor3d(x0, [batch, H, A]), tf.fill([batch], 1) as tf.Tensor1D, tf.fill([batch], 0.5) as tf.Tensor1D, features).velocity;
    });
    const otherVelocity = Float64Array.from(await otherV.data());
    otherV.dispose();
    const chains = tf.tensor4d(result.chains, [batch, steps + 1, H, A]);
    const inds = tf.tensor2d(result.denoiseInds, [batch, steps]);
    const state = tf.tensor2d(obsData, [batch, OBS]);
    const slice = { logprobType: 'token', nActionSteps: H, envActionDim: A } as const;
    const rescored = tf.tidy(() => chainLogProb(other, { state }, chains, inds, { method: 'cps', mode: 'joint', steps, level, ...slice }).logProb);
    const rescoredData = await rescored.data();
    tf.dispose([rescored, chains, inds, state]);
    other.dispose();
    for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
      for (let element = 0; element < H * A; element++) {
        const base = chainIndex * (steps + 1) * H * A + element;
        const [x0, x1] = [result.chains[base], result.chains[base + H * A]];
        const offset = chainIndex * H * A + element;
        // μ_0 = w0·(x_0 − 1·v) + w1·(x_0 + 0·v)
        const mean = w0 * (x0 - v[offset]) + w1 * x0;
        const otherMean = w0 * (x0 - otherVelocity[offset]) + w1 * x0;
        const reference = (logNormal(x0, 0, 1) + logNormal(x1, mean, std)) / 3;
        expect(result.logProbs[offset]).toBeCloseTo(reference, 4);
        const logRatio = (logNormal(x1, otherMean, std) - logNormal(x1, mean, std)) / 3;
        expect(rescoredData[offset] - result.logProbs[offset]).toBeCloseTo(logRatio, 3);
      }
    }
  });

  test('logprob_type mean: a joint chain\'s log-prob over (K + 1)·H·A, the whole horizon (ReinFlow\'s state agent)', async () => {
    // ReinFlow: logp = [Σ_{h,a} log N(x_0; 0, 1) + Σ_k Σ_{h,a} log N(x_{k+1}; μ_k, σ_k²)] / ((K + 1)·H·A), with every
    // predicted position counted even when fewer run (here Ta = 1 of H = 2). For K = 2, H = A = 2 that is the sum of
    // 3 terms × 4 elements = 12 log-densities over 12. `chunk` over the same H × A sums the per-element K + 1 means:
    // H·A = 4 times `mean`, the factor by which the same clip ε clipped far more.
    const [batch, steps, seed] = [3, 2, 6];
    const bounds = { stdMin: 0.1, stdMax: 0.3 };
    const options: SamplerOptions = { method: 'noise', mode: 'joint', steps, level: 0, bounds };
    const obsData = observations(batch, 2);
    const state = tf.tensor2d(obsData, [batch, OBS]);
    const mean = await sampleActions(policy, { state }, options, createRng(seed), { logprobType: 'mean', nActionSteps: 1, envActionDim: A });
    const chunk = await sampleActions(policy, { state }, options, createRng(seed), { logprobType: 'chunk', nActionSteps: H, envActionDim: A });
    state.dispose();
    expect(mean.logProbShape).toEqual([batch]);
    const logNormal = (x: number, mu: number, sigma: number) => -((x - mu) ** 2) / (2 * sigma * sigma) - Math.log(sigma) - 0.5 * Math.log(2 * Math.PI);
    const chainSums = new Float64Array(batch);
    for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
      for (let element = 0; element < H * A; element++) chainSums[chainIndex] += logNormal(mean.chains[chainIndex * (steps + 1) * H * A + element], 0, 1);
    }
    for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
      const v = await velocityAt(mean, obsData, stepIndex);
      const { w0, w1 } = referenceStep('ode', steps, 0, stepIndex);
      const t = 1 - stepIndex / steps;
      for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
        for (let element = 0; element < H * A; element++) {
          const base = chainIndex * (steps + 1) * H * A + element;
          const x = mean.chains[base + stepIndex * H * A];
          const velocity = v[chainIndex * H * A + element];
          const mu = w0 * (x - t * velocity) + w1 * (x + (1 - t) * velocity);
          const sigma = mean.stds[(chainIndex * steps + stepIndex) * H * A + element];
          chainSums[chainIndex] += logNormal(mean.chains[base + (stepIndex + 1) * H * A], mu, sigma);
        }
      }
    }
    for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
      expect(mean.logProbs[chainIndex]).toBeCloseTo(chainSums[chainIndex] / ((steps + 1) * H * A), 4);
      expect(chunk.logProbs[chainIndex]).toBeCloseTo(H * A * mean.logProbs[chainIndex], 4);
    }
  });

  test('denoised clamp (ReinFlow\'s clip_intermediate_actions): every step samples and scores around clamp(μ, −c, c)', async () => {
    // c = 0.4: clamp(0.9) = 0.4, clamp(−0.55) = −0.4, clamp(0.1) = 0.1. Then x_{k+1} = clamp(μ_k) + std_k·ε and
    // logp = (log N(x_0; 0, 1) + Σ_k log N(x_{k+1}; clamp(μ_k), std_k²)) / (K + 1), as ReinFlow scores its clamped means.
    const [batch, steps, level, seed, c] = [4, 3, 0.5, 12, 0.4];
    const { result, obsData } = await sample(batch, { method: 'sde', mode: 'joint', steps, level, denoisedClamp: c }, seed);
    const rng = createRng(seed);
    const elementCount = batch * H * A;
    const x0 = rng.fillNormal(new Float32Array(elementCount));
    const epsilon = rng.fillNormal(new Float32Array(steps * elementCount));
    const logNormal = (x: number, mu: number, sigma: number) => -((x - mu) ** 2) / (2 * sigma * sigma) - Math.log(sigma) - 0.5 * Math.log(2 * Math.PI);
    const logProb = Float64Array.from(x0, (value) => logNormal(value, 0, 1));
    let clamped = 0;
    for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
      const v = await velocityAt(result, obsData, stepIndex);
      const { w0, w1, std } = referenceStep('sde', steps, level, stepIndex);
      const t = 1 - stepIndex / steps;
      for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
        for (let element = 0; element < H * A; element++) {
          const base = chainIndex * (steps + 1) * H * A + element;
          const x = result.chains[base + stepIndex * H * A];
          const velocity = v[chainIndex * H * A + element];
          const raw = w0 * (x - t * velocity) + w1 * (x + (1 - t) * velocity);
          const mean = Math.min(Math.max(raw, -c), c);
          if (mean !== raw) clamped++;
          const offset = chainIndex * H * A + element;
          const xNext = result.chains[base + (stepIndex + 1) * H * A];
          expect(xNext).toBeCloseTo(mean + std * epsilon[stepIndex * elementCount + offset], 4);
          logProb[offset] += logNormal(xNext, mean, std);
        }
      }
    }
    expect(clamped).toBeGreaterThan(0);
    for (let offset = 0; offset < elementCount; offset++) expect(result.logProbs[offset]).toBeCloseTo(logProb[offset] / (steps + 1), 3);
    // Eval chains clamp too: every ODE step lands in [−c, c].
    const evalChain = (await sample(batch, { method: 'sde', mode: 'eval', steps, level, denoisedClamp: c }, seed)).result;
    for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
      const start = chainIndex * (steps + 1) * H * A + H * A;
      for (const value of evalChain.chains.subarray(start, start + steps * H * A)) expect(Math.abs(value)).toBeLessThanOrEqual(Math.fround(c));
    }
    await expect(sample(batch, { method: 'sde', mode: 'eval', steps, level, denoisedClamp: -1 }, seed))
      .rejects.toMatchObject({ name: 'ConfigError', field: 'policy.denoised_clamp' });
  });

  test('eval steps and the ODE steps of hybrid chains are plain Euler', async () => {
    const [batch, steps] = [3, 3];
    for (const mode of ['eval', 'hybrid'] as const) {
      const { result, obsData } = await sample(batch, { method: 'sde', mode, steps, level: 0.7 }, 4);
      for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
        const v = await velocityAt(result, obsData, stepIndex);
        for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
          if (result.denoiseInds[chainIndex * steps + stepIndex] === 1) continue;
          for (let element = 0; element < H * A; element++) {
            const base = chainIndex * (steps + 1) * H * A + element;
            // Euler: w0·(x − t·v) + (t − δ)·(x + (1 − t)·v) = x − δ·v
            const expected = result.chains[base + stepIndex * H * A] - v[chainIndex * H * A + element] / steps;
            expect(result.chains[base + (stepIndex + 1) * H * A]).toBeCloseTo(expected, 5);
          }
        }
      }
      if (mode === 'eval') {
        expect(result.logProbs.every((value) => value === 0)).toBe(true);
        expect(result.stds.every((value) => value === 0)).toBe(true);
        expect(result.denoiseInds.every((value) => value === 0)).toBe(true);
      } else {
        expect(result.denoiseInds.reduce((sum, flag) => sum + flag, 0)).toBe(batch);
      }
    }
  });
});

describe('sampler statistics', () => {
  test('sde hybrid: empirical mean and std of the stochastic step match μ and σ', async () => {
    const [batch, steps, level] = [1500, 4, 0.5];
    const { result, obsData } = await sample(batch, { method: 'sde', mode: 'hybrid', steps, level }, 99, 2);
    const residuals: number[][] = Array.from({ length: steps }, () => []);
    const velocities = await Promise.all(Array.from({ length: steps }, (_, stepIndex) => velocityAt(result, obsData, stepIndex)));
    for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
      const row = Array.from(result.denoiseInds.subarray(chainIndex * steps, (chainIndex + 1) * steps));
      expect(row.reduce((sum, flag) => sum + flag, 0)).toBe(1);
      const stepIndex = row.indexOf(1);
      const { w0, w1 } = referenceStep('sde', steps, level, stepIndex);
      const t = 1 - stepIndex / steps;
      for (let element = 0; element < H * A; element++) {
        const base = chainIndex * (steps + 1) * H * A + element;
        const x = result.chains[base + stepIndex * H * A];
        const velocity = velocities[stepIndex][chainIndex * H * A + element];
        const mean = w0 * (x - t * velocity) + w1 * (x + (1 - t) * velocity);
        residuals[stepIndex].push(result.chains[base + (stepIndex + 1) * H * A] - mean);
      }
    }
    // σ schedule for K = 4, a = 0.5: std = [0.5, 0.4330, 0.25, 0.1443].
    const expectedStd = [0.5, 0.4330127, 0.25, 0.1443376];
    for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
      const values = residuals[stepIndex];
      const n = values.length;
      // Uniform index: each step gets about B/K = 375 chains (binomial sd ≈ 17).
      expect(n / (H * A)).toBeGreaterThan(300);
      const mean = values.reduce((sum, value) => sum + value, 0) / n;
      const std = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1));
      // Tolerances: mean within 4 standard errors (4σ/√n), std within 8% (relative sd of a sample std ≈ 1/√(2n) ≈ 1.8%).
      expect(Math.abs(mean)).toBeLessThan((4 * expectedStd[stepIndex]) / Math.sqrt(n));
      expect(Math.abs(std / expectedStd[stepIndex] - 1)).toBeLessThan(0.08);
      for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
        const stored = result.stds[chainIndex * steps + stepIndex];
        if (result.denoiseInds[chainIndex * steps + stepIndex] === 1) expect(stored).toBeCloseTo(expectedStd[stepIndex], 5);
        else expect(stored).toBe(0);
      }
    }
  });

  test('noise method: normalized residuals are N(0, 1) and the learned std stays within its bounds', async () => {
    const [batch, steps] = [800, 2];
    const bounds = { stdMin: 0.08, stdMax: 0.16 };
    const { result, obsData } = await sample(batch, { method: 'noise', mode: 'joint', steps, level: 0, bounds }, 5, 3);
    expect(result.stdShape).toEqual([batch, steps, H, A]);
    const normalized: number[] = [];
    for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
      const v = await velocityAt(result, obsData, stepIndex);
      const { w0, w1 } = referenceStep('ode', steps, 0, stepIndex);
      const t = 1 - stepIndex / steps;
      for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
        for (let element = 0; element < H * A; element++) {
          const base = chainIndex * (steps + 1) * H * A + element;
          const x = result.chains[base + stepIndex * H * A];
          const mean = w0 * (x - t * v[chainIndex * H * A + element]) + w1 * (x + (1 - t) * v[chainIndex * H * A + element]);
          const std = result.stds[((chainIndex * steps + stepIndex) * H * A) + element];
          expect(std).toBeGreaterThanOrEqual(bounds.stdMin * (1 - 1e-5));
          expect(std).toBeLessThanOrEqual(bounds.stdMax * (1 + 1e-5));
          normalized.push((result.chains[base + (stepIndex + 1) * H * A] - mean) / std);
        }
      }
    }
    const n = normalized.length;
    const mean = normalized.reduce((sum, value) => sum + value, 0) / n;
    const std = Math.sqrt(normalized.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1));
    // n = 6400: standard error of the mean 0.0125, of the std ≈ 0.009.
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(std - 1)).toBeLessThan(0.04);
  });
});

describe('sampler modes, determinism and outputs', () => {
  test('denoise_inds: one uniform step per chain (never cps last), joint all, eval and ode none', async () => {
    const batch = 400;
    const hybrid = (await sample(batch, { method: 'cps', mode: 'hybrid', steps: 4, level: 0.5 }, 3)).result;
    const counts = [0, 0, 0, 0];
    for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
      const row = Array.from(hybrid.denoiseInds.subarray(chainIndex * 4, chainIndex * 4 + 4));
      expect(row.reduce((sum, flag) => sum + flag, 0)).toBe(1);
      counts[row.indexOf(1)]++;
    }
    // cps never picks the std-0 last step; the other three get ≈ 133 each.
    expect(counts[3]).toBe(0);
    for (const count of counts.slice(0, 3)) expect(count).toBeGreaterThan(100);
    const joint = (await sample(2, { method: 'cps', mode: 'joint', steps: 3, level: 0.5 }, 3)).result;
    expect(Array.from(joint.denoiseInds)).toEqual([1, 1, 0, 1, 1, 0]);
    const ode = (await sample(2, { method: 'ode', mode: 'hybrid', steps: 3, level: 0 }, 3)).result;
    expect(Array.from(ode.denoiseInds)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  test('shapes, and actions are the last chain element', async () => {
    const { result } = await sample(3, { method: 'sde', mode: 'hybrid', steps: 5, level: 0.3 }, 8);
    expect(result.chains.length).toBe(3 * 6 * H * A);
    expect(result.actions.length).toBe(3 * H * A);
    expect(result.denoiseInds.length).toBe(15);
    expect(result.logProbs.length).toBe(3 * H * A);
    expect(result.values.length).toBe(3);
    expect(result.stdShape).toEqual([3, 5]);
    for (let chainIndex = 0; chainIndex < 3; chainIndex++) {
      const start = (chainIndex * 6 + 5) * H * A;
      expect(Array.from(result.actions.subarray(chainIndex * H * A, (chainIndex + 1) * H * A)))
        .toEqual(Array.from(result.chains.subarray(start, start + H * A)));
    }
  });

  test('eval with a fixed seed is deterministic; other seeds differ', async () => {
    const options: SamplerOptions = { method: 'sde', mode: 'eval', steps: 4, level: 0.5 };
    const first = (await sample(4, options, 12)).result;
    const second = (await sample(4, options, 12)).result;
    const other = (await sample(4, options, 13)).result;
    expect(Array.from(second.actions)).toEqual(Array.from(first.actions));
    expect(Array.from(second.chains)).toEqual(Array.from(first.chains));
    expect(Array.from(other.actions)).not.toEqual(Array.from(first.actions));
    const hybridA = (await sample(4, { ...options, mode: 'hybrid' }, 12)).result;
    const hybridB = (await sample(4, { ...options, mode: 'hybrid' }, 12)).result;
    expect(Array.from(hybridB.chains)).toEqual(Array.from(hybridA.chains));
  });

  test('repeated sampling leaves tf.memory().numTensors unchanged', async () => {
    const state = tf.tensor2d(observations(5, 1), [5, OBS]);
    const options: SamplerOptions = { method: 'noise', mode: 'hybrid', steps: 3, level: 0, bounds: { stdMin: 0.05, stdMax: 0.2 } };
    await sampleActions(policy, { state }, options, createRng(1));
    const before = tf.memory().numTensors;
    for (let repeat = 0; repeat < 4; repeat++) {
      await sampleActions(policy, { state }, options, createRng(repeat));
      await sampleActions(policy, { state }, { method: 'sde', mode: 'joint', steps: 3, level: 0.4 }, createRng(repeat));
    }
    expect(tf.memory().numTensors).toBe(before);
    state.dispose();
  });

  test('bad inputs throw named errors naming the field', async () => {
    const wrong = tf.zeros([2, OBS + 1]);
    const good = tf.zeros([2, OBS]);
    const options: SamplerOptions = { method: 'sde', mode: 'hybrid', steps: 3, level: 0.5 };
    await expect(sampleActions(policy, { state: wrong }, options, createRng(1))).rejects.toMatchObject({ name: 'ShapeError', field: 'obs.state' });
    await expect(sampleActions(policy, {}, options, createRng(1))).rejects.toMatchObject({ name: 'ShapeError', field: 'obs.state' });
    await expect(sampleActions(policy, { state: good }, { ...options, mode: 'train' as 'eval' }, createRng(1)))
      .rejects.toMatchObject({ name: 'ConfigError', field: 'mode', message: expect.stringContaining('hybrid, joint, eval') });
    await expect(sampleActions(policy, { state: good }, { ...options, method: 'noise' }, createRng(1)))
      .rejects.toMatchObject({ name: 'ConfigError', field: 'noise.std_min' });
    await expect(sampleActions(policy, { state: good }, { ...options, method: 'noise', bounds: { stdMin: 0.3, stdMax: 0.1 } }, createRng(1)))
      .rejects.toMatchObject({ name: 'ConfigError', field: 'noise.std_max' });
    await expect(sampleActions(policy, { state: good }, { ...options, steps: 0 }, createRng(1)))
      .rejects.toMatchObject({ name: 'ConfigError', field: 'policy.denoise_steps' });
    const plain = new FlowPolicy({ ...tinyArchitecture, noiseHead: false }, 1);
    await expect(sampleActions(plain, { state: good }, { ...options, method: 'noise', bounds: { stdMin: 0.1, stdMax: 0.2 } }, createRng(1)))
      .rejects.toMatchObject({ name: 'ShapeError', field: 'noiseHead' });
    plain.dispose();
    tf.dispose([wrong, good]);
  });
});
