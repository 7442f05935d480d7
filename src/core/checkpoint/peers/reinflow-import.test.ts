import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { chainLogProb } from '../../flow/chain-logprob';
import { odeActions } from '../../flow/ode-actions';
import { sampleActions } from '../../flow/sampler';
import { createRng } from '../../random';
import type { PolicyBundle } from '../../policy/policy-bundle';
import { peerPolicyBundle } from './fixtures/peer-bundle';
import { readReinflowCheckpoint, type PeerCheckpointFiles } from './reinflow-import';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Files written by ReinFlow's own code (../shared/fixtures/README.md), beside the project, never copied into it. */
const PEER = path.resolve(here, '../../../../../shared/fixtures/peers/reinflow-hopper');

interface Expected {
  obs_raw: number[][];
  obs_normalized: number[][];
  z: number[][][];
  runs: Array<{ inference_steps: number; actions_normalized: number[][][]; actions: number[][][]; velocity_at_t0_from_z: number[][][] }>;
}
interface FinetunedExpected {
  obs_normalized: number[][];
  z: number[][][];
  values: number[];
  steps: Array<{ step: number; t: number; x: number[][][]; velocity: number[][][]; noise_std: number[][] }>;
}

function files(checkpoint: string): PeerCheckpointFiles {
  return {
    checkpoint: { name: checkpoint, bytes: readFileSync(path.join(PEER, checkpoint)) },
    normalization: { name: 'normalization.npz', bytes: readFileSync(path.join(PEER, 'normalization.npz')) },
  };
}

const json = <T>(name: string): T => JSON.parse(readFileSync(path.join(PEER, name), 'utf8')) as T;
const flat = (values: number[][][] | number[][]): number[] => (values as unknown[]).flat(2) as number[];

function maxAbsDifference(actual: ArrayLike<number>, expected: number[]): number {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let index = 0; index < expected.length; index++) worst = Math.max(worst, Math.abs(actual[index] - expected[index]));
  return worst;
}

describe.skipIf(!existsSync(PEER))("ReinFlow's own hopper checkpoints, imported", () => {
  let bundle: PolicyBundle;
  beforeAll(async () => {
    await useNodeBackend('wasm');
    bundle = await peerPolicyBundle(readReinflowCheckpoint(files('state_40.pt')));
  });
  afterAll(() => bundle?.policy.dispose());

  it('reads state_40.pt as its FlowMLP: 512×3 residual ReLU MLP, time embedding 16, obs 11, chunk 4 × 3, on ReinFlow\'s grid', () => {
    const imported = readReinflowCheckpoint(files('state_40.pt'));
    expect(imported.architecture).toMatchObject({
      velocityNet: 'reflow_mlp', obsDim: 11, nObsSteps: 1, horizon: 4, actionDim: 3, velocityHidden: [512, 512, 512], timeEmbedDim: 16,
      encoderHidden: [], timeGrid: 'reinflow', reflow: { activation: 'ReLU', residual: true, layerNorm: false },
    });
    expect(imported.stage).toBe('bc');
    expect(imported.settings).toMatchObject({ denoiseSteps: 4, nActionSteps: 4, denoisedClamp: 1 });
    expect(imported.notes.join('\n')).toContain('no Hydra config found');
  });

  it("normalizes observations as ReinFlow's wrapper does (to 1e-5)", () => {
    const expected = json<Expected>('expected.json');
    const normalized = bundle.obsNormalizer.normalize(Float32Array.from(expected.obs_raw.flat()));
    expect(maxAbsDifference(normalized, expected.obs_normalized.flat())).toBeLessThan(1e-5);
  });

  it("returns ReFlow.sample's actions for K = 4, 1 and 20 from the same z (to 1e-4 in env units)", async () => {
    const expected = json<Expected>('expected.json');
    const batch = expected.z.length;
    for (const run of expected.runs) {
      const actions = tf.tidy(() => {
        const obs = { state: tf.tensor3d(Float32Array.from(expected.obs_normalized.flat()), [batch, 1, 11]) };
        return odeActions(bundle.policy, obs, tf.tensor3d(Float32Array.from(flat(expected.z)), [batch, 4, 3]), run.inference_steps, 1);
      });
      const normalized = (await actions.data()) as Float32Array;
      actions.dispose();
      expect(maxAbsDifference(normalized, flat(run.actions_normalized)), `K = ${run.inference_steps}`).toBeLessThan(1e-5);
      expect(maxAbsDifference(bundle.actionNormalizer.unnormalize(normalized), flat(run.actions)), `K = ${run.inference_steps}`).toBeLessThan(1e-4);
    }
  });

  it('gives the velocity at t = 0 from z (ReinFlow time; our velocity is its negative)', async () => {
    const expected = json<Expected>('expected.json');
    const batch = expected.z.length;
    const velocity = tf.tidy(() => {
      const features = bundle.policy.encode({ state: tf.tensor3d(Float32Array.from(expected.obs_normalized.flat()), [batch, 1, 11]) });
      // ReinFlow's s = 0 is our t = 1.
      const out = bundle.policy.velocity(tf.tensor3d(Float32Array.from(flat(expected.z)), [batch, 4, 3]), tf.fill([batch], 1) as tf.Tensor1D, tf.fill([batch], 0.25) as tf.Tensor1D, features);
      return tf.neg(out.velocity);
    });
    const values = (await velocity.data()) as Float32Array;
    velocity.dispose();
    expect(maxAbsDifference(values, flat(expected.runs[0].velocity_at_t0_from_z))).toBeLessThan(1e-5);
  });

  it("brings the fine-tuned file's critic, velocities and exploration-noise stds (finetuned_expected.json)", async () => {
    const expected = json<FinetunedExpected>('finetuned_expected.json');
    const imported = readReinflowCheckpoint(files('finetuned_120.pt'));
    expect(imported.withHeads).toBe(true);
    expect(imported.stage).toBe('ppo');
    expect(imported.training).toEqual({ iteration: 120, envSteps: 9_600_000 });
    expect(imported.architecture).toMatchObject({ valueHidden: [256, 256, 256], noiseHidden: [64, 64], reflow: { criticActivation: 'Mish', criticResidual: true, noiseActivation: 'Tanh' } });
    const finetuned = await peerPolicyBundle(imported);
    const batch = expected.z.length;
    const bounds = { stdMin: imported.settings.stdMin, stdMax: imported.settings.stdMax };
    try {
      const obs = Float32Array.from(expected.obs_normalized.flat());
      const values = tf.tidy(() => finetuned.policy.value(finetuned.policy.encode({ state: tf.tensor3d(obs, [batch, 1, 11]) })));
      expect(maxAbsDifference((await values.data()) as Float32Array, expected.values)).toBeLessThan(1e-5);
      values.dispose();
      for (const step of expected.steps) {
        const [velocity, std] = tf.tidy(() => {
          const features = finetuned.policy.encode({ state: tf.tensor3d(obs, [batch, 1, 11]) });
          // ReinFlow's time s is our t = 1 − s.
          const t = tf.fill([batch], 1 - step.t) as tf.Tensor1D;
          const x = tf.tensor3d(Float32Array.from(flat(step.x)), [batch, 4, 3]);
          return [tf.neg(finetuned.policy.velocity(x, t, tf.fill([batch], 0.25) as tf.Tensor1D, features).velocity), finetuned.policy.noiseStd(features, t, bounds)];
        });
        expect(maxAbsDifference((await velocity.data()) as Float32Array, flat(step.velocity)), `step ${step.step}`).toBeLessThan(1e-5);
        expect(maxAbsDifference((await std.data()) as Float32Array, flat(step.noise_std)), `step ${step.step}`).toBeLessThan(1e-5);
        velocity.dispose();
        std.dispose();
      }
    } finally {
      finetuned.policy.dispose();
    }
  });
});

describe.skipIf(!existsSync(PEER))("ReinFlow's fine-tuned policy keeps one grid for sampling and log-probs (DESIGN.md §3 \"Time\")", () => {
  it('recomputing the stored chains with unchanged weights gives their log-probs: hybrid and joint, learned noise, mean reduction', async () => {
    await useNodeBackend('wasm');
    const imported = readReinflowCheckpoint(files('finetuned_120.pt'));
    const finetuned = await peerPolicyBundle(imported);
    const expected = json<FinetunedExpected>('finetuned_expected.json');
    const batch = expected.z.length;
    try {
      for (const mode of ['hybrid', 'joint'] as const) {
        const options = {
          method: 'noise' as const, mode, steps: 4, level: 0, denoisedClamp: 1,
          bounds: { stdMin: imported.settings.stdMin, stdMax: imported.settings.stdMax },
          logprobType: 'mean' as const, nActionSteps: 4, envActionDim: 3,
        };
        const obs = { state: tf.tensor3d(Float32Array.from(expected.obs_normalized.flat()), [batch, 1, 11]) };
        const sampled = await sampleActions(finetuned.policy, obs, options, createRng(3), options);
        const recomputed = tf.tidy(() => chainLogProb(finetuned.policy, obs, tf.tensor4d(sampled.chains, [batch, 5, 4, 3]), tf.tensor2d(sampled.denoiseInds, [batch, 4]), options).logProb);
        const values = (await recomputed.data()) as Float32Array;
        recomputed.dispose();
        obs.state.dispose();
        expect(maxAbsDifference(values, Array.from(sampled.logProbs)), mode).toBeLessThan(1e-5);
        expect(sampled.logProbs.some((value) => value !== 0), mode).toBe(true);
      }
    } finally {
      finetuned.policy.dispose();
    }
  });
});
