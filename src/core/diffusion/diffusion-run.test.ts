/**
 * The diffusion family on the one run (DESIGN.md §16, §17): a fresh policy trains with DPPO's objective, its rollout's
 * log-probs recompute exactly (ratio 1 before any update), a save resumes bit for bit, and its checkpoint says its kind.
 */
import * as tf from '@tensorflow/tfjs';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { decodePolicyCheckpoint } from '../checkpoint/fixtures/decode-bytes';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import type { RunConfig } from '../config/run-config';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import type { MetricRecord } from '../metrics/metric-keys';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { changedParameters, tinyConfig } from '../rl/fixtures/test-support';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import { loadPolicy } from '../run/families';
import { openRun } from '../run/open-run';
import type { RunPorts } from '../run/run-ports';
import { sampleDiffusion } from './diffusion-sampler';
import { diffusionSettings } from './diffusion-settings';
import { dppoLossOptions } from './dppo-objective';
import { dppoStepLogProbs } from './dppo-loss';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});

const ports = (): RunPorts => ({ openEnv: async (config) => new InThreadBatchEnv(mj, config), clock: () => 0 });

/** Reach with a tiny ε net: T = 6, the last 3 steps fine-tuned; 8 decisions × 3 steps = 24 samples per update. */
function diffusionConfig(extra: string[] = []): RunConfig {
  return tinyConfig([
    'policy.kind=diffusion', 'policy.denoise_steps=6', 'dppo.ft_denoising_steps=3', 'ppo.minibatch_size=8', 'ppo.epochs=2',
    'actor_lr=1e-3', 'critic_lr=1e-3', 'env.max_episode_steps=3', 'ppo.logprob_clamp=true', 'ppo.logprob_min=-5', 'ppo.logprob_max=2', ...extra,
  ]);
}

async function train(config: RunConfig, checkpoint: FamilyCheckpoint | undefined, iterations: number) {
  const opened = await openRun(config, checkpoint, ports());
  try {
    const records: MetricRecord[] = [];
    for (let step = 0; step < iterations; step++) records.push(await opened.run.step());
    const contents = await opened.run.contents();
    const weights = new Map<string, Float32Array>();
    for (const [name, entry] of contents.tensors) weights.set(name, entry.data.slice());
    return { records, saved: encodeFlowtune(contents), weights, reference: contents.reference };
  } finally {
    await opened.close();
  }
}

describe('a diffusion policy on the one run', () => {
  it('trains with DPPO\'s objective, saves as a diffusion checkpoint with its base net, and resumes bit for bit', async () => {
    const config = diffusionConfig();
    const straight = await train(config, undefined, 4);
    const firstHalf = await train(config, undefined, 2);
    const resumed = await train(config, decodePolicyCheckpoint(firstHalf.saved, { expectedTask: 'reach' }), 2);
    expect(resumed.records).toEqual(straight.records.slice(2));
    expect(changedParameters(straight.weights, resumed.weights)).toEqual([]);
    // Not vacuous: the update ran, episodes finished, and the ε net moved away from its base.
    expect(straight.records.every((record) => Number(record['losses/value']) > 0)).toBe(true);
    expect(straight.records.some((record) => Number(record['losses/approx_kl']) > 0)).toBe(true);
    expect(Number(straight.records[3]['charts/episode_length'])).toBeGreaterThan(0);
    const checkpoint = decodePolicyCheckpoint(straight.saved, { expectedTask: 'reach' });
    expect(checkpoint.kind).toBe('diffusion');
    expect(checkpoint.metadata.architecture.kind).toBe('diffusion');
    expect(checkpoint.reference).toBeDefined();
    const base = straight.reference!.get('velocity.output.kernel')!.data;
    expect(Array.from(base)).not.toEqual(Array.from(straight.weights.get('velocity.output.kernel')!));
  }, 120_000);

  it('a fine-tuned policy evaluates and exports as DPPO runs it: its base net on the early steps, in tfjs and in ONNX alike', async () => {
    const config = diffusionConfig();
    const { saved } = await train(config, undefined, 2);
    const checkpoint = decodePolicyCheckpoint(saved, { expectedTask: 'reach' });
    const loaded = loadPolicy(checkpoint, config);
    const { bytes, description } = await loaded.exportOnnx(checkpoint.metadata);
    expect(description).toContain('6-step DDPM mean chain');
    const session = await ort.InferenceSession.create(bytes);
    const { nObsSteps, obsFrameSize, x0Shape } = loaded.io;
    const batch = 3;
    const rng = createRng(11);
    const obs = Float32Array.from({ length: batch * nObsSteps * obsFrameSize }, () => rng.uniform() - 0.5);
    const x0 = rng.fillNormal(new Float32Array(batch * x0Shape![0] * x0Shape![1]));
    const onnx = (await session.run({
      obs: new ort.Tensor('float32', obs, [batch, nObsSteps, obsFrameSize]),
      x0: new ort.Tensor('float32', x0, [batch, ...x0Shape!]),
    })).actions.data as Float32Array;
    // The evaluation actor draws x_T from its rng first: hand it one that returns this x0.
    const fixed = { ...createRng(0), fillNormal: (out: Float32Array) => { out.set(x0); return out; } } as unknown as ReturnType<typeof createRng>;
    const tfjs = await loaded.evalActor(config).act(obs, batch, fixed);
    expect(Math.max(...Array.from(tfjs, (value, index) => Math.abs(value - onnx[index])))).toBeLessThan(1e-4);
    // The base net matters: the fine-tuned net alone on every step gives other actions.
    const alone = loadPolicy({ ...checkpoint, reference: undefined }, config);
    const without = await alone.evalActor(config).act(obs, batch, fixed);
    expect(Math.max(...Array.from(tfjs, (value, index) => Math.abs(value - without[index])))).toBeGreaterThan(1e-6);
    await session.release();
    loaded.dispose();
    alone.dispose();
  }, 60_000);

  it('trains a DiT-X ε net too (DDIM fine-tuning), its update moving the weights', async () => {
    const config = diffusionConfig(['policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=1', 'policy.ditx_heads=2', 'policy.ddim_steps=3']);
    const { records, weights, reference } = await train(config, undefined, 1);
    expect(Number.isFinite(Number(records[0]['losses/policy']))).toBe(true);
    const moved = [...weights].filter(([name, data]) => name.startsWith('velocity.') && data.some((value, index) => value !== reference!.get(name)!.data[index]));
    expect(moved.length).toBeGreaterThan(0);
  }, 60_000);

  it('a fresh run with policy.obs_clip clamps its observation normalizer and saves the clamp', async () => {
    const opened = await openRun(diffusionConfig(['policy.obs_clip=0.5']), undefined, ports());
    try {
      const saved = decodePolicyCheckpoint(encodeFlowtune(await opened.run.contents()));
      expect(saved.obsNormalizer.clip).toBe(0.5);
    } finally {
      await opened.close();
    }
  }, 60_000);

  it('refuses to fine-tune more steps than the chain has, naming the key; evaluation thins K\' with the chain', async () => {
    const config = diffusionConfig(['policy.ddim_steps=2']);
    await expect(openRun(config, undefined, ports())).rejects.toThrow("dppo.ft_denoising_steps (3) must be at most the chain's 2 DDIM (policy.ddim_steps) steps");
    expect(diffusionSettings(config).ftSteps).toBe(2);
  });

  it("DPPO's BC term (ppo.bc_coef) reads the base net's own chains: finite, and a log-prob term the update reports", async () => {
    const { records } = await train(diffusionConfig(['ppo.bc_coef=0.1']), undefined, 1);
    // −(mean clamped log-prob) of a 12-element chunk under stds ≥ 0.1: within [−2, 5] (the clamp's range, negated).
    const bc = Number(records[0]['losses/bc']);
    expect(Number.isFinite(bc)).toBe(true);
    expect(bc).toBeGreaterThanOrEqual(-2);
    expect(bc).toBeLessThanOrEqual(5);
  }, 60_000);

  it('the loss recomputes the rollout\'s stored log-probs exactly: the ratio is 1 at lr 0 (DDPM and DDIM)', async () => {
    for (const extra of [[], ['policy.ddim_steps=3', 'dppo.ft_denoising_steps=2']]) {
      const config = diffusionConfig(extra);
      const settings = diffusionSettings(config);
      const policy = new FlowPolicy(policyOptionsFromConfig(config, 6, 3), 4);
      const base = new FlowPolicy(policyOptionsFromConfig(config, 6, 3), 5);
      const width = policy.options.nObsSteps * 6;
      const state = tf.tensor2d(Float32Array.from({ length: 5 * width }, (_, index) => Math.sin(index)), [5, width]);
      const sample = await sampleDiffusion(policy, base, { state }, settings, createRng(9), { deterministic: false });
      const options = dppoLossOptions(config, settings, policy, false);
      const { horizon, actionDim } = policy.options;
      const element = horizon * actionDim;
      for (let k = 0; k < settings.ftSteps; k++) {
        const pick = (source: Float32Array, stride: number, index: number) => Float32Array.from({ length: 5 * element }, (_, offset) => source[Math.floor(offset / element) * stride * element + index * element + (offset % element)]);
        const recomputed = tf.tidy(() => dppoStepLogProbs(policy, policy.encode({ state }), tf.tensor3d(pick(sample.chains, settings.ftSteps + 1, k), [5, horizon, actionDim]),
          tf.tensor3d(pick(sample.chains, settings.ftSteps + 1, k + 1), [5, horizon, actionDim]), tf.fill([5], k), options));
        const values = await recomputed.data();
        recomputed.dispose();
        const stored = pick(sample.logProbs, settings.ftSteps, k);
        const worst = Math.max(...Array.from(values, (value, index) => Math.abs(value - stored[index])));
        expect(worst, `step ${k} ${extra.join(' ')}`).toBeLessThan(1e-5);
      }
      tf.dispose([state]);
      policy.dispose();
      base.dispose();
    }
  });
});

afterAll(() => undefined);
