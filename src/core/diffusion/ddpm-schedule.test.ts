import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { flowMlpNames } from '../checkpoint/peers/reinflow-names';
import { isPickleDict, stateDictTensors, type PickleDict } from '../checkpoint/torch/pickle-values';
import { toFloat32 } from '../checkpoint/torch/tensor-dtypes';
import { readTorchCheckpoint } from '../checkpoint/torch/torch-pt-reader';
import { readNormalization, transposed } from '../checkpoint/peers/peer-normalization';
import { dense } from '../policy/layers';
import { resolveFlowPolicyOptions } from '../policy/options';
import { torchActivation, torchMlp } from '../policy/torch-mlp';
import { reflowSinusoid, reflowVelocityLayout } from '../policy/velocity-reflow';
import { cosineBetas, ddimStepReference, ddimTimesteps, ddpmSchedule, ddpmStepReference } from './ddpm-schedule';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe("DPPO's cosine schedule in float64 (DESIGN.md §17)", () => {
  it('β_t = 1 − ᾱ(x_{t+1})/ᾱ(x_t) with ᾱ(x) = cos²((x/(T+1) + s)/(1 + s)·π/2) on linspace(0, T+1, T+1)', () => {
    // T = 1: x = 0 and 2 (numpy's linspace(0, 2, 2)); ᾱ(0) = cos²(0.008/1.008·π/2) = 0.99984460…,
    // ᾱ(2) = cos²((1 + 0.008)/1.008·π/2) = cos²(π/2) ≈ 3.7e-33, so β_0 = 1 − 3.7e-33/0.9998 clips to 0.999.
    expect(Array.from(cosineBetas(1))).toEqual([0.999]);
    // T = 2: x = 0, 1.5, 3 → ᾱ ∝ cos²(0.0124651…), cos²((0.5 + 0.008)/1.008·π/2), cos²(π/2); β_0 = 1 − ᾱ(1.5)/ᾱ(0).
    const alphaBar = (x: number) => Math.cos(((x / 3 + 0.008) / 1.008) * Math.PI * 0.5) ** 2;
    const betas = cosineBetas(2);
    expect(betas[0]).toBeCloseTo(1 - alphaBar(1.5) / alphaBar(0), 15);
    expect(betas[1]).toBe(0.999);
  });

  it('the DDPM coefficients follow from the betas (T = 20, checked at t = 7 by hand)', () => {
    const schedule = ddpmSchedule(20);
    const t = 7;
    let product = 1;
    for (let s = 0; s <= t; s++) product *= 1 - schedule.betas[s];
    const previous = product / (1 - schedule.betas[t]);
    expect(schedule.alphasCumprod[t]).toBeCloseTo(product, 15);
    expect(schedule.alphasCumprodPrev[t]).toBeCloseTo(previous, 15);
    expect(schedule.muCoef1[t]).toBeCloseTo((schedule.betas[t] * Math.sqrt(previous)) / (1 - product), 15);
    expect(schedule.muCoef2[t]).toBeCloseTo(((1 - previous) * Math.sqrt(1 - schedule.betas[t])) / (1 - product), 15);
    expect(schedule.logvarClipped[t]).toBeCloseTo(Math.log((schedule.betas[t] * (1 - previous)) / (1 - product)), 13);
    // Posterior mean of x_0 = 1 from x_t = 1: coef1 + coef2 (it pulls toward the data).
    const { mean, std } = ddpmStepReference(schedule, t, [1], [0], { denoisedClip: 0, minStd: 1e-3 });
    expect(mean[0]).toBeCloseTo(schedule.muCoef1[t] * schedule.sqrtRecipAlphasCumprod[t] + schedule.muCoef2[t], 15);
    expect(std).toBeCloseTo(Math.exp(schedule.logvarClipped[t] / 2), 15);
    expect(ddpmStepReference(schedule, 0, [1], [0], { denoisedClip: 0, minStd: 1e-3 }).std).toBe(0);
  });

  it("DDIM's leading grid: T = 20, S = 5 gives 16, 12, 8, 4, 0", () => {
    expect(ddimTimesteps(20, 5)).toEqual([16, 12, 8, 4, 0]);
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));
const PEER = path.resolve(here, '../../../../shared/fixtures/peers/dppo-hopper');

interface Expected {
  obs_normalized: number[][];
  x_T: number[][][];
  ddpm_noises: number[][][][];
  epsilon_at_t7_from_x_T: number[][][];
  ddpm_chain: Array<{ t: number; mean: number[][][]; std: number[][][] | number[]; x: number[][][] }>;
  ddpm_actions: number[][][];
  ddim_chain: Array<{ t: number; x: number[][][] }>;
}

describe.skipIf(!existsSync(PEER))("DPPO's own hopper diffusion policy: ε, a DDPM chain and a DDIM chain", () => {
  it('our schedule and steps, with ε from its DiffusionMLP, follow DPPO\'s chains (1e-5 per step, 1e-4 through 20 steps)', async () => {
    // DiffusionMLP has FlowMLP's layout (time embedding, ResidualMLP on [x | emb(t) | obs]), read with the same names.
    const options = resolveFlowPolicyOptions({
      obsDim: 11, horizon: 4, actionDim: 3, velocityNet: 'reflow_mlp', velocityHidden: [512, 512, 512], encoderHidden: [], timeEmbedDim: 16,
      shortcut: false, valueHidden: [256, 256, 256], reflow: { activation: 'ReLU', residual: true, layerNorm: false, criticActivation: 'Mish', criticResidual: true, criticLayerNorm: false, noiseActivation: 'Tanh', combination: 'add' },
    });
    const top = readTorchCheckpoint(new Uint8Array(readFileSync(path.join(PEER, 'state_3000.pt'))));
    if (!isPickleDict(top)) throw new Error('expected a dict');
    const ema = stateDictTensors(top.get('ema') as PickleDict);
    const params = new Map<string, tf.Tensor>();
    for (const { peer, ours, transpose } of flowMlpNames('network.', options)) {
      const tensor = ema.get(peer)!;
      const values = toFloat32(tensor);
      params.set(ours, transpose ? tf.tensor2d(transposed(values, tensor.shape[0], tensor.shape[1]), [tensor.shape[1], tensor.shape[0]]) : tf.tensor(values, [...tensor.shape]));
    }
    const param = (name: string) => params.get(name)!;
    const expected = JSON.parse(readFileSync(path.join(PEER, 'expected.json'), 'utf8')) as Expected;
    const batch = expected.x_T.length;
    const obs = tf.tensor2d(expected.obs_normalized.flat(), [batch, 11]);
    const epsilon = async (x: ArrayLike<number>, t: number): Promise<Float32Array> => {
      const out = tf.tidy(() => {
        const embedding = dense(param, 'velocity.time.1', torchActivation('Mish', dense(param, 'velocity.time.0', reflowSinusoid(tf.fill([batch], t) as tf.Tensor1D, 16))));
        const input = tf.concat([tf.tensor2d(Float32Array.from(x), [batch, 12]), embedding, obs], 1);
        return torchMlp(param, 'velocity.mlp', reflowVelocityLayout(options, 11), input).output;
      });
      const values = (await out.data()) as Float32Array;
      out.dispose();
      return values;
    };
    const worst = (actual: ArrayLike<number>, want: number[]) => Math.max(...want.map((value, index) => Math.abs(actual[index] - value)));

    // ε at t = 7 from x_T.
    expect(worst(await epsilon(expected.x_T.flat(2), 7), expected.epsilon_at_t7_from_x_T.flat(2))).toBeLessThan(1e-5);

    // DDPM: x_{t−1} = μ + std·clamp(noise, ±10), std floored at 1e−3 and 0 at t = 0, the last x clamped to [−1, 1].
    const schedule = ddpmSchedule(20);
    let x: ArrayLike<number> = expected.x_T.flat(2);
    for (const [index, step] of expected.ddpm_chain.entries()) {
      const { mean, std } = ddpmStepReference(schedule, step.t, x, await epsilon(x, step.t), { denoisedClip: 1, minStd: 1e-3 });
      expect(worst(mean, step.mean.flat(2)), `mean at t = ${step.t}`).toBeLessThan(1e-4);
      expect(Math.abs(std - ([step.std].flat(3)[0] as number)), `std at t = ${step.t}`).toBeLessThan(1e-5);
      const noise = expected.ddpm_noises[index].flat(2);
      const next = Float64Array.from(mean, (value, element) => value + std * Math.min(10, Math.max(-10, noise[element])));
      x = step.t === 0 ? next.map((value) => Math.min(1, Math.max(-1, value))) : next;
      expect(worst(x, step.x.flat(2)), `x after t = ${step.t}`).toBeLessThan(1e-4);
    }
    // DPPO's actions are in env units: a = (x + 1)/2·(max − min) + min with normalization.npz's action range.
    const { action } = readNormalization({ name: 'normalization.npz', bytes: new Uint8Array(readFileSync(path.join(PEER, 'normalization.npz'))) }, 'state_3000.pt');
    const actions = Array.from(x, (value, element) => ((value + 1) / 2) * (action.max[element % 3] - action.min[element % 3]) + action.min[element % 3]);
    expect(worst(actions, expected.ddpm_actions.flat(2))).toBeLessThan(1e-4);

    // DDIM (η = 0, 5 steps) from the same x_T.
    const grid = ddimTimesteps(20, 5);
    expect(expected.ddim_chain.map((step) => step.t)).toEqual(grid);
    let y: ArrayLike<number> = expected.x_T.flat(2);
    for (const [index, step] of expected.ddim_chain.entries()) {
      y = ddimStepReference(schedule, grid, index, y, await epsilon(y, step.t), 1);
      expect(worst(y, step.x.flat(2)), `DDIM x after t = ${step.t}`).toBeLessThan(1e-4);
    }
    obs.dispose();
    for (const tensor of params.values()) tensor.dispose();
  });
});
