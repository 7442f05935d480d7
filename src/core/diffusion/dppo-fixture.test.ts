/**
 * Our float32 diffusion chain and DPPO loss against DPPO's own code (DESIGN.md §17): the hopper DiffusionModel's DDIM
 * chain and DDPM steps (expected.json), and every output of PPODiffusion.loss on one batch (ppo_loss_expected.json).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { flowMlpNames, ppoFlowHeadNames } from '../checkpoint/peers/reinflow-names';
import { transposed } from '../checkpoint/peers/peer-normalization';
import { isPickleDict, stateDictTensors, type PickleDict } from '../checkpoint/torch/pickle-values';
import { toFloat32 } from '../checkpoint/torch/tensor-dtypes';
import { readTorchCheckpoint } from '../checkpoint/torch/torch-pt-reader';
import { FlowPolicy, type WeightEntry } from '../policy/flow-policy';
import { resolveFlowPolicyOptions, type FlowPolicyOptions } from '../policy/options';
import { createRng } from '../random';
import { chainCoefficients, predictEpsilon, stepAt, stepMeanFromEpsilon } from './diffusion-step';
import { sampleDiffusion } from './diffusion-sampler';
import type { DiffusionSettings } from './diffusion-settings';
import { dppoClipAt, dppoMinibatchLoss, type DppoLossOptions } from './dppo-loss';

const PEER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures/peers/dppo-hopper');

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** DPPO's Gym hopper DiffusionMLP and CriticObs (512×3 residual ReLU MLP, time embedding 16; 256×3 residual Mish critic). */
const OPTIONS: FlowPolicyOptions = resolveFlowPolicyOptions({
  obsDim: 11, horizon: 4, actionDim: 3, velocityNet: 'reflow_mlp', velocityHidden: [512, 512, 512], encoderHidden: [], timeEmbedDim: 16,
  shortcut: false, noiseHead: false, valueHidden: [256, 256, 256], prediction: 'epsilon',
  reflow: { activation: 'ReLU', residual: true, layerNorm: false, criticActivation: 'Mish', criticResidual: true, criticLayerNorm: false, noiseActivation: 'Tanh', combination: 'add' },
});

/** Our policy with the named state dict's net under `root` and, when present, its critic; other parameters stay fresh. */
function policyFrom(file: string, dictKey: string, root: string): FlowPolicy {
  const top = readTorchCheckpoint(new Uint8Array(readFileSync(path.join(PEER, file))));
  if (!isPickleDict(top)) throw new Error('expected a dict');
  const tensors = stateDictTensors(top.get(dictKey) as PickleDict);
  const fresh = new FlowPolicy(OPTIONS, 0);
  const weights = new Map<string, WeightEntry>();
  const names = [...flowMlpNames(root, OPTIONS), ...ppoFlowHeadNames(OPTIONS).filter((name) => name.peer.startsWith('critic.'))];
  for (const { peer, ours, transpose } of names) {
    const tensor = tensors.get(peer);
    if (!tensor) continue;
    const values = toFloat32(tensor);
    weights.set(ours, transpose ? { shape: [tensor.shape[1], tensor.shape[0]], data: transposed(values, tensor.shape[0], tensor.shape[1]) } : { shape: [...tensor.shape], data: values });
  }
  const all = new Map<string, WeightEntry>();
  for (const [name, variable] of fresh.namedVariables()) all.set(name, weights.get(name) ?? { shape: [...variable.shape], data: variable.dataSync() as Float32Array });
  fresh.dispose();
  return new FlowPolicy(OPTIONS, all);
}

const worst = (actual: ArrayLike<number>, want: number[]) => Math.max(...want.map((value, index) => Math.abs(actual[index] - value)));

describe.skipIf(!existsSync(PEER))("our float32 diffusion chain follows DPPO's hopper DiffusionModel", () => {
  it('the sampler\'s deterministic DDIM chain (5 of 20 steps, x̂_0 clamped at 1) from x_T gives DPPO\'s within 1e-4', async () => {
    const expected = JSON.parse(readFileSync(path.join(PEER, 'expected.json'), 'utf8')) as { obs_normalized: number[][]; x_T: number[][][]; ddim_chain: Array<{ t: number; x: number[][][] }>; ddpm_chain: Array<{ t: number; mean: number[][][]; std: unknown; x: number[][][] }>; ddpm_noises: number[][][][] };
    const policy = policyFrom('state_3000.pt', 'ema', 'network.');
    const batch = expected.x_T.length;
    const state = tf.tensor2d(expected.obs_normalized.flat(), [batch, 11]);
    const settings: DiffusionSettings = { steps: 20, ddimSteps: 5, denoisedClip: 1, ftSteps: 5, minSamplingStd: 0.1, minLogprobStd: 0.1, randnClip: 10 };
    const sample = await sampleDiffusion(policy, undefined, { state }, settings, createRng(0), { deterministic: true, fullChain: true, xT: Float32Array.from(expected.x_T.flat(2)) });
    const element = (index: number) => sample.fullChain!.filter((_, offset) => Math.floor(offset / 12) % 6 === index);
    for (const [index, step] of expected.ddim_chain.entries()) {
      expect(worst(element(index + 1), step.x.flat(2)), `DDIM x after t = ${step.t}`).toBeLessThan(1e-4);
    }
    expect(worst(sample.actions, expected.ddim_chain.at(-1)!.x.flat(2))).toBeLessThan(1e-4);

    // DDPM: our tfjs step, driven with DPPO's deterministic std rule (floor 1e-3, 0 at t = 0) and its step noises.
    const coefficients = chainCoefficients({ steps: 20, ddimSteps: 0 }, OPTIONS);
    let x: tf.Tensor = tf.tensor3d(expected.x_T.flat(2), [batch, 4, 3]);
    const features = policy.encode({ state });
    for (const [index, step] of expected.ddpm_chain.entries()) {
      const at = stepAt(coefficients, index, batch);
      const mean = stepMeanFromEpsilon(at, x, predictEpsilon(policy, x, at.netTime, features), 1, false);
      expect(worst(await mean.data(), step.mean.flat(2)), `mean at t = ${step.t}`).toBeLessThan(1e-4);
      const std = step.t === 0 ? 0 : Math.max(1e-3, coefficients.std[index]);
      let next = tf.add(mean, tf.mul(tf.clipByValue(tf.tensor3d(expected.ddpm_noises[index].flat(2), [batch, 4, 3]), -10, 10), std));
      if (step.t === 0) next = tf.clipByValue(next, -1, 1);
      expect(worst(await next.data(), step.x.flat(2)), `x after t = ${step.t}`).toBeLessThan(1e-4);
      x = next;
    }
    policy.dispose();
  });
});

describe.skipIf(!existsSync(PEER))("our DPPO loss gives every output of DPPO's PPODiffusion.loss on its batch", () => {
  it('policy loss, value loss, clip fraction, approx KL and mean ratio within 1e-5 (value loss 1e-5 relative)', async () => {
    const fixture = JSON.parse(readFileSync(path.join(PEER, 'ppo_loss_expected.json'), 'utf8')) as {
      obs_normalized: number[][][]; chains_prev: number[][][]; chains_next: number[][][]; denoising_inds: number[]; returns: number[]; oldvalues: number[]; advantages: number[]; oldlogprobs: number[][][];
      outputs: Record<string, number>;
    };
    const policy = policyFrom('finetuned_5.pt', 'model', 'actor_ft.');
    const rows = fixture.denoising_inds.length;
    const settings = { steps: 20, ddimSteps: 0 };
    const options: DppoLossOptions = {
      coefficients: chainCoefficients(settings, OPTIONS), firstTuned: 10, ftSteps: 10, denoisedClip: 1, ddim: false, minLogprobStd: 0.1, rewardHorizon: 4,
      logProbRange: { min: -5, max: 2 }, normalizeAdvantages: true, quantiles: { low: 0, high: 1 }, gammaDenoising: 0.99,
      clipLow: 0.01, clipHigh: 0.01, clipBase: 0.001, clipRate: 3, critic: { lossType: 'mse' }, weights: { valueCoef: 1, entropyCoef: 0 }, criticOnly: false,
    };
    const { loss, metrics } = tf.tidy(() => {
      const result = dppoMinibatchLoss(policy, {
        state: tf.tensor2d(fixture.obs_normalized.flat(2), [rows, 11]),
        prev: tf.tensor3d(fixture.chains_prev.flat(2), [rows, 4, 3]),
        next: tf.tensor3d(fixture.chains_next.flat(2), [rows, 4, 3]),
        step: tf.tensor1d(fixture.denoising_inds),
        advantages: tf.tensor1d(fixture.advantages),
        returns: tf.tensor1d(fixture.returns),
        oldValues: tf.tensor1d(fixture.oldvalues),
        oldLogProbs: tf.tensor3d(fixture.oldlogprobs.flat(2), [rows, 4, 3]),
      }, options);
      for (const scalar of Object.values(result.metrics)) tf.keep(scalar!);
      return { loss: tf.keep(result.loss), metrics: result.metrics };
    });
    const read = async (key: keyof typeof metrics) => (await metrics[key]!.data())[0];
    const out = fixture.outputs;
    expect(Math.abs((await read('losses/policy')) - out.pg_loss)).toBeLessThan(1e-5);
    expect(Math.abs((await read('losses/value')) - out.v_loss) / out.v_loss).toBeLessThan(1e-5);
    expect(await read('losses/clip_fraction')).toBeCloseTo(out.clipfrac, 6);
    expect(Math.abs((await read('losses/approx_kl')) - out.approx_kl)).toBeLessThan(1e-5);
    expect(Math.abs((await read('losses/ratio_mean')) - out.ratio)).toBeLessThan(1e-5);
    // total = policy + value_coef·value (entropy is DPPO's constant −η and carries no gradient; no BC term).
    expect(Math.abs((await loss.data())[0] - (out.pg_loss + out.v_loss)) / out.v_loss).toBeLessThan(1e-5);
    tf.dispose([loss, ...Object.values(metrics)]);
    policy.dispose();
  });

  it("the per-step clip follows ε_base + (ε − ε_base)·(e^{r·k/(K'−1)} − 1)/(e^r − 1) (K' = 10, ε 0.01, base 0.001, r 3)", () => {
    // k = 0: the base 0.001; k = 9: 0.01; k = 3: 0.001 + 0.009·(e^1 − 1)/(e^3 − 1) = 0.001 + 0.009·1.7182818/19.0855369 = 0.0018103.
    expect(dppoClipAt(0, 10, 0.01, 0.001, 3)).toBeCloseTo(0.001, 12);
    expect(dppoClipAt(9, 10, 0.01, 0.001, 3)).toBeCloseTo(0.01, 12);
    expect(dppoClipAt(3, 10, 0.01, 0.001, 3)).toBeCloseTo(0.001 + (0.009 * (Math.E - 1)) / (Math.exp(3) - 1), 12);
    expect(dppoClipAt(3, 10, 0.01, 0.001, 3)).toBeCloseTo(0.0018103, 6);
  });
});
