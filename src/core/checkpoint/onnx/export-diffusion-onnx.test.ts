import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxActor } from '../../../cli/onnx-actor';
import { useNodeBackend } from '../../../cli/node-backend';
import { defaultConfig, type RunConfig } from '../../config';
import { ddimStepReference, ddimTimesteps, ddpmSchedule, ddpmStepReference } from '../../diffusion/ddpm-schedule';
import { diffusionActor } from '../../diffusion/diffusion-actor';
import { DDPM_MIN_STD, diffusionNetTime, FINAL_ACTION_CLIP } from '../../diffusion/diffusion-settings';
import { observationSpec } from '../../envs/observation';
import { getTask } from '../../envs/task-registry';
import { CheckpointError } from '../../errors';
import { FlowPolicy } from '../../policy/flow-policy';
import { MinMaxNormalizer, type MinMaxStats } from '../../policy/normalizer';
import { obsFrameSize, resolveFlowPolicyOptions } from '../../policy/options';
import type { PolicyBundle } from '../../policy/policy-bundle';
import { createRng } from '../../random';
import { policyOptionsFromConfig } from '../../rl/policy-setup';
import { flowMlpNames } from '../peers/reinflow-names';
import { readNormalization, transposed } from '../peers/peer-normalization';
import { flowMetadata } from '../policy-checkpoint';
import { isPickleDict, stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { toFloat32 } from '../torch/tensor-dtypes';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { diffusionOnnxSpec, exportDiffusionOnnx } from './export-diffusion-onnx';
import { exportPolicyOnnx } from './export-onnx';
import { bundleMetadata, DITX, envUnitObs, exportConfig, randomBundle, UNET1D } from './fixtures';
import { maxAbsDifference } from './max-abs-difference';
import { ONNX_POLICY_IO } from './policy-graph';
import { readOnnxPolicy } from './policy-metadata';

const REACH_STATE = observationSpec(getTask('reach'), 'state', 0).dim;

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const bundles: PolicyBundle[] = [];
afterAll(() => bundles.forEach((bundle) => bundle.policy.dispose()));

/** actions [B, n_action_steps, A] of the exported graph for raw obs [B, nObs, frame] and x0 [B, H, A]. */
async function runGraph(bytes: Uint8Array, obs: Float32Array, obsDims: readonly number[], x0: Float32Array, x0Dims: readonly number[]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(bytes);
  try {
    const outputs = await session.run({
      [ONNX_POLICY_IO.obs]: new ort.Tensor('float32', obs, obsDims),
      [ONNX_POLICY_IO.x0]: new ort.Tensor('float32', x0, x0Dims),
    });
    return Float32Array.from(outputs[ONNX_POLICY_IO.actions].data as Float32Array);
  } finally {
    await session.release();
  }
}

/** a = (y + 1)/2·(max − min) + min, in float64: normalized actions back in env units. */
function envUnits(y: number, stats: MinMaxStats, feature: number): number {
  return ((y + 1) / 2) * (stats.max[feature] - stats.min[feature]) + stats.min[feature];
}

/**
 * The deterministic chain in float64 from ddpm-schedule.ts's step references, with ε from the tfjs policy at each x:
 * DDIM (S > 0) or DDPM's mean chain, x̂_0 clamped to ±clamp, the last x clipped to ±1, then the first n_action_steps
 * positions in env units. [B, n_action_steps, A].
 */
async function referenceActions(
  bundle: PolicyBundle,
  normalizedObs: Float32Array,
  xT: Float32Array,
  chain: { steps: number; ddimSteps: number; clamp: number; nActionSteps: number },
): Promise<{ actions: Float64Array; inside: number }> {
  const { policy } = bundle;
  const { horizon, actionDim, nObsSteps } = policy.options;
  const batch = xT.length / (horizon * actionDim);
  const state = tf.tensor2d(normalizedObs, [batch, nObsSteps * obsFrameSize(policy.options)]);
  const features = policy.encode({ state });
  const epsilon = async (x: Float64Array, t: number): Promise<Float32Array> => {
    const out = tf.tidy(() => {
      const netTime = tf.fill([batch], diffusionNetTime(policy.options, t, chain.steps)) as tf.Tensor1D;
      return policy.velocity(tf.tensor3d(Float32Array.from(x), [batch, horizon, actionDim]), netTime, tf.zerosLike(netTime), features).velocity;
    });
    const values = (await out.data()) as Float32Array;
    out.dispose();
    return values;
  };
  const schedule = ddpmSchedule(chain.steps);
  const grid = chain.ddimSteps > 0 ? ddimTimesteps(chain.steps, chain.ddimSteps) : Array.from({ length: chain.steps }, (_, index) => chain.steps - 1 - index);
  let x: Float64Array = Float64Array.from(xT);
  try {
    for (const [index, t] of grid.entries()) {
      const eps = await epsilon(x, t);
      x = chain.ddimSteps > 0
        ? ddimStepReference(schedule, grid, index, x, eps, chain.clamp)
        : ddpmStepReference(schedule, t, x, eps, { denoisedClip: chain.clamp, minStd: DDPM_MIN_STD }).mean;
    }
  } finally {
    tf.dispose([state, features]);
  }
  const { stats } = bundle.actionNormalizer;
  const out = new Float64Array(batch * chain.nActionSteps * actionDim);
  let inside = 0;
  for (let row = 0; row < batch; row++) {
    for (let element = 0; element < chain.nActionSteps * actionDim; element++) {
      const value = x[row * horizon * actionDim + element];
      // Neither the final clip nor the last step's clamp decides it.
      if (Math.abs(value) < Math.min(FINAL_ACTION_CLIP, chain.clamp > 0 ? chain.clamp : Infinity) - 1e-6) inside += 1;
      const y = Math.min(FINAL_ACTION_CLIP, Math.max(-FINAL_ACTION_CLIP, value));
      out[row * chain.nActionSteps * actionDim + element] = envUnits(y, stats, element % actionDim);
    }
  }
  return { actions: out, inside: inside / out.length };
}

interface Case {
  net: string;
  overrides: string[];
}

const NETS: Case[] = [
  { net: 'mlp', overrides: ['policy.hidden=32,32,32', 'policy.encoder_hidden=24,24'] },
  { net: 'reflow_mlp', overrides: ['policy.velocity_net=reflow_mlp', 'policy.hidden=32,32,32', 'policy.encoder_hidden=', 'policy.value_hidden=8'] },
  { net: 'ditx', overrides: DITX },
  { net: 'unet1d', overrides: UNET1D },
];
/**
 * An untrained net's ε is far from the noise in x_t, so x̂_0 = (x − √(1 − ᾱ)·ε)/√ᾱ grows up to 1/√ᾱ_5 ≈ 123-fold at
 * T = 6, and its chains would end at ±1 (the final clip, or the clamp of the last step) nearly everywhere, hiding their
 * arithmetic: `tame` scales x_T and the net's output layer so that many elements end inside (the test checks how many).
 */
const CHAINS = [
  { name: 'DDPM', ddimSteps: 0, clamp: 0, tame: 0.004 },
  { name: 'DDPM', ddimSteps: 0, clamp: 1, tame: 0.02 },
  { name: 'DDIM S = 3', ddimSteps: 3, clamp: 0, tame: 0.15 },
  { name: 'DDIM S = 3', ddimSteps: 3, clamp: 1, tame: 0.3 },
];

/** Scales the velocity net's output layer (every net names it velocity.output or velocity.mlp.output) by `factor`. */
async function scaleOutputLayer(bundle: PolicyBundle, factor: number): Promise<void> {
  const weights = await bundle.policy.getWeights();
  for (const [name, entry] of weights) {
    if (/^velocity\.(mlp\.)?output\./.test(name)) entry.data = entry.data.map((value) => value * factor);
  }
  bundle.policy.setWeights(weights);
}

/** A diffusion run config on reach: T = 6, H = 6, 3 executed steps, n_obs_steps 2. */
function diffusionConfig(net: Case, chain: (typeof CHAINS)[number]): RunConfig {
  return exportConfig([
    ...net.overrides, 'policy.kind=diffusion', 'policy.denoise_steps=6', `policy.ddim_steps=${chain.ddimSteps}`,
    `policy.denoised_clamp=${chain.clamp}`, 'policy.n_obs_steps=2', 'dppo.ft_denoising_steps=1',
  ]);
}

describe('a diffusion policy\'s ONNX graph in onnxruntime-node is its deterministic chain (DESIGN.md §6 "ONNX", §17)', () => {
  for (const net of NETS) {
    for (const chain of CHAINS) {
      if ((net.net === 'ditx' || net.net === 'unet1d') && !(chain.ddimSteps > 0 && chain.clamp > 0)) continue;
      it(`${net.net}, T = 6, ${chain.name}${chain.clamp > 0 ? `, x̂_0 clamped to ±${chain.clamp}` : ''}: the float64 reference chain with ε from tfjs (1e-4) and the tfjs eval actor (1e-4)`, async () => {
        const config = diffusionConfig(net, chain);
        const bundle = await randomBundle(policyOptionsFromConfig(config, REACH_STATE, 4), 11);
        bundles.push(bundle);
        await scaleOutputLayer(bundle, chain.tame);
        expect(bundle.policy.options.prediction).toBe('epsilon');
        const metadata = await bundleMetadata(bundle, config);
        const bytes = await exportDiffusionOnnx(bundle, metadata);
        const spec = diffusionOnnxSpec(bundle, metadata);
        expect(spec).toMatchObject({ denoiseSteps: 6, ddimSteps: chain.ddimSteps, denoisedClamp: chain.clamp, nActionSteps: 3, horizon: 6 });
        // It reads back as a Flowtune policy file with the flow export's shapes.
        expect(readOnnxPolicy(bytes).spec).toMatchObject({ denoiseSteps: 6, nObsSteps: 2, horizon: 6, nActionSteps: 3, actionDim: 4 });

        const rng = createRng(5);
        for (const batch of [1, 5]) {
          const obs = envUnitObs(bundle.obsNormalizer, batch * 2, rng);
          const xT = rng.fillNormal(new Float32Array(batch * 6 * 4)).map((value) => value * chain.tame);
          const actual = await runGraph(bytes, obs, [batch, 2, REACH_STATE], xT, [batch, 6, 4]);
          const chainSpec = { steps: 6, ddimSteps: chain.ddimSteps, clamp: chain.clamp, nActionSteps: 3 };
          const { actions: expected, inside } = await referenceActions(bundle, bundle.obsNormalizer.normalize(obs), xT, chainSpec);
          expect(actual.length).toBe(expected.length);
          expect(maxAbsDifference(actual, expected)).toBeLessThan(1e-4);
          // A fifth or more of the chain's last elements are decided by its steps, not by the clip or the clamp.
          if (batch === 5) expect(inside).toBeGreaterThanOrEqual(0.2);
          if (chain.clamp > 0) {
            // The clamp bites, so the match above is the clamped chain's.
            const unclamped = await referenceActions(bundle, bundle.obsNormalizer.normalize(obs), xT, { ...chainSpec, clamp: 0 });
            expect(maxAbsDifference(unclamped.actions, expected)).toBeGreaterThan(1e-3);
          }
        }

        // The studio's and the command line's evaluation (the tfjs deterministic chain) gives the same actions.
        const onnxActor = await OnnxActor.open(bytes, spec);
        try {
          const obs = envUnitObs(bundle.obsNormalizer, 4 * 2, createRng(9));
          const expected = await diffusionActor(bundle, config).act(obs, 4, createRng(3));
          expect(maxAbsDifference(await onnxActor.act(obs, 4, createRng(3)), expected)).toBeLessThan(1e-4);
          expect(maxAbsDifference(await onnxActor.act(obs, 4, createRng(4)), expected)).toBeGreaterThan(1e-3);
        } finally {
          await onnxActor.dispose();
        }
      });
    }
  }

  it('refuses in one sentence a policy that predicts velocities, and a policy.ddim_steps that does not divide T', async () => {
    const flowConfig = exportConfig();
    const flow = await randomBundle(policyOptionsFromConfig(flowConfig, REACH_STATE, 4), 3);
    bundles.push(flow);
    const flowMetadataOfRun = await bundleMetadata(flow, flowConfig);
    await expect(exportDiffusionOnnx(flow, flowMetadataOfRun)).rejects.toThrow(CheckpointError);
    await expect(exportDiffusionOnnx(flow, flowMetadataOfRun)).rejects.toThrow(/predicts a velocity/);
    // The flow export still takes it.
    expect((await exportPolicyOnnx(flow, flowMetadataOfRun)).length).toBeGreaterThan(0);

    const config = diffusionConfig(NETS[0], CHAINS[3]);
    const bundle = await randomBundle(policyOptionsFromConfig(config, REACH_STATE, 4), 4);
    bundles.push(bundle);
    const metadata = await bundleMetadata(bundle, config);
    const withDdim = (value: unknown) => ({ ...metadata, config: { ...metadata.config, policy: { ...(metadata.config as { policy: object }).policy, ddim_steps: value } } });
    for (const value of [4, -1, 1.5, '3']) {
      await expect(exportDiffusionOnnx(bundle, withDdim(value) as typeof metadata)).rejects.toThrow(/policy\.ddim_steps must be 0 or a whole number that divides its 6 denoising steps/);
    }
    // Absent: the DDPM chain.
    const { ddim_steps: _dropped, ...policyWithout } = (metadata.config as { policy: Record<string, unknown> }).policy;
    expect(diffusionOnnxSpec(bundle, { ...metadata, config: { ...metadata.config, policy: policyWithout } } as typeof metadata).ddimSteps).toBe(0);
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));
const PEER = path.resolve(here, '../../../../../shared/fixtures/peers/dppo-hopper');

interface DppoExpected {
  obs_raw: number[][];
  obs_normalized: number[][];
  x_T: number[][][];
  ddim_chain: Array<{ t: number; x: number[][][] }>;
}

describe.skipIf(!existsSync(PEER))("DPPO's hopper diffusion policy exported as ONNX", () => {
  it("given DPPO's x_T as x0, the graph returns its 5-step DDIM chain's actions (x̂_0 clamped to ±1) in env units (1e-4)", async () => {
    // DPPO's DiffusionMLP read into our reflow_mlp layout, as ddpm-schedule.test.ts reads it, predicting ε.
    const options = resolveFlowPolicyOptions({
      obsDim: 11, horizon: 4, actionDim: 3, velocityNet: 'reflow_mlp', velocityHidden: [512, 512, 512], encoderHidden: [], timeEmbedDim: 16,
      shortcut: false, valueHidden: [256, 256, 256], prediction: 'epsilon',
      reflow: { activation: 'ReLU', residual: true, layerNorm: false, criticActivation: 'Mish', criticResidual: true, criticLayerNorm: false, noiseActivation: 'Tanh', combination: 'add' },
    });
    const top = readTorchCheckpoint(new Uint8Array(readFileSync(path.join(PEER, 'state_3000.pt'))));
    if (!isPickleDict(top)) throw new Error('expected a dict');
    const ema = stateDictTensors(top.get('ema') as PickleDict);
    const policy = new FlowPolicy(options, 0);
    const weights = await policy.getWeights();
    for (const { peer, ours, transpose } of flowMlpNames('network.', options)) {
      const tensor = ema.get(peer)!;
      const values = toFloat32(tensor);
      weights.set(ours, transpose
        ? { shape: [tensor.shape[1], tensor.shape[0]], data: transposed(values, tensor.shape[0], tensor.shape[1]) }
        : { shape: [...tensor.shape], data: values });
    }
    policy.setWeights(weights);
    const normalization = readNormalization({ name: 'normalization.npz', bytes: new Uint8Array(readFileSync(path.join(PEER, 'normalization.npz'))) }, 'state_3000.pt');
    const bundle: PolicyBundle = {
      policy,
      obsNormalizer: new MinMaxNormalizer(normalization.obs, 'obs_normalizer'),
      actionNormalizer: new MinMaxNormalizer(normalization.action, 'action_normalizer'),
    };
    bundles.push(bundle);

    const base = defaultConfig();
    const config: RunConfig = {
      ...base,
      task: 'hopper',
      policy: {
        ...base.policy, kind: 'diffusion', velocity_net: 'reflow_mlp', hidden: [512, 512, 512], encoder_hidden: [], value_hidden: [256, 256, 256],
        denoise_steps: 20, ddim_steps: 5, denoised_clamp: 1, horizon: 4, n_action_steps: 4, n_obs_steps: 1,
      },
    };
    const metadata = flowMetadata({ options, normalizer: normalization, task: 'hopper', stage: 'bc', config, training: { step: 3000, iteration: 0, env_steps: 0 } });
    const bytes = await exportDiffusionOnnx(bundle, metadata);
    expect(readOnnxPolicy(bytes).spec).toMatchObject({ task: 'hopper', denoiseSteps: 20, nObsSteps: 1, obsFrameSize: 11, horizon: 4, nActionSteps: 4, actionDim: 3 });

    const expected = JSON.parse(readFileSync(path.join(PEER, 'expected.json'), 'utf8')) as DppoExpected;
    const batch = expected.x_T.length;
    expect(expected.ddim_chain.map((step) => step.t)).toEqual([16, 12, 8, 4, 0]);
    const last = expected.ddim_chain.at(-1)!.x.flat(2);
    const want = last.map((value, element) => envUnits(value, normalization.action, element % 3));
    // The raw observations, and the normalized ones mapped back to env units, give the same actions.
    const rawObs = Float32Array.from(expected.obs_raw.flat());
    const unnormalizedObs = Float32Array.from(expected.obs_normalized.flatMap((row) => row.map((value, feature) => envUnits(value, normalization.obs, feature))));
    const xT = Float32Array.from(expected.x_T.flat(2));
    for (const obs of [rawObs, unnormalizedObs]) {
      const actions = await runGraph(bytes, obs, [batch, 1, 11], xT, [batch, 4, 3]);
      expect(actions.length).toBe(want.length);
      expect(maxAbsDifference(actions, want)).toBeLessThan(1e-4);
    }
  });
});
