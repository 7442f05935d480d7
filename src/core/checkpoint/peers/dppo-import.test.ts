import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { applyOverrides, defaultConfig, type RunConfig } from '../../config';
import { openCheckpoint } from '../../run/open-checkpoint';
import { openPeerCheckpoint } from '../../run/peer-checkpoint-file';
import { decodeFileContents } from '../checkpoint-file';
import { bundleFromCheckpoint } from '../policy-checkpoint';
import { isPickleDict, stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { toFloat32 } from '../torch/tensor-dtypes';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { readDppoCheckpoint } from './dppo-import';
import { readPeerCheckpoint } from './peer-import';
import type { PeerCheckpointFiles } from './peer-policy';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Files written by DPPO's own code (../shared/fixtures/README.md), beside the project, never copied into it. */
const PEER = path.resolve(here, '../../../../../shared/fixtures/peers/dppo-hopper');
const OWN = path.join(here, 'fixtures');

interface Expected {
  obs_normalized: number[][];
  x_T: number[][][];
  epsilon_at_t7_from_x_T: number[][][];
}
interface LossBatch {
  obs_normalized: number[][][] | number[][];
  returns: number[];
  outputs: { v_loss: number };
}

const read = (folder: string, name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(folder, name))) });
const json = <T>(folder: string, name: string): T => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as T;

function files(checkpoint: string, config?: string): PeerCheckpointFiles {
  return { checkpoint: read(PEER, checkpoint), normalization: read(PEER, 'normalization.npz'), ...(config ? { config: { name: 'config.yaml', text: config } } : {}) };
}

function maxAbsDifference(actual: ArrayLike<number>, expected: readonly number[]): number {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let index = 0; index < expected.length; index++) worst = Math.max(worst, Math.abs(actual[index] - expected[index]));
  return worst;
}

/** The imported file as a live policy, through the one open path every host takes. */
function openAsRun(checkpoint: string) {
  const opened = openPeerCheckpoint(files(checkpoint));
  const { checkpoint: decoded, config } = openCheckpoint(opened.file, applyOverrides(defaultConfig(), ['task=hopper']));
  if (decoded.kind === 'gaussian') throw new Error('expected a diffusion checkpoint');
  return { opened, decoded, config, bundle: bundleFromCheckpoint(decoded).bundle };
}

/** ε of the policy's net at step t for x [B, 4, 3] and normalized obs [B, 11]. */
async function epsilon(bundle: ReturnType<typeof openAsRun>['bundle'], x: number[], obs: number[], t: number): Promise<Float32Array> {
  const batch = obs.length / 11;
  const out = tf.tidy(() => {
    const features = bundle.policy.encode({ state: tf.tensor3d(obs, [batch, 1, 11]) });
    return bundle.policy.velocity(tf.tensor3d(x, [batch, 4, 3]), tf.fill([batch], t) as tf.Tensor1D, tf.zeros([batch]) as tf.Tensor1D, features).velocity;
  });
  const values = (await out.data()) as Float32Array;
  out.dispose();
  return values;
}

describe.skipIf(!existsSync(PEER))("DPPO's own hopper checkpoints, imported as diffusion policies", () => {
  beforeAll(async () => {
    await useNodeBackend('wasm');
  });

  it("state_3000.pt is DiffusionModel's EMA DiffusionMLP: its ε at t = 7 from x_T is DPPO's (1e-5)", async () => {
    const { opened, decoded, config, bundle } = openAsRun('state_3000.pt');
    try {
      expect(opened.file.kind).toBe('diffusion');
      expect(decoded.kind).toBe('diffusion');
      expect(opened.file.metadata.stage).toBe('bc');
      expect(opened.file.metadata.training).toMatchObject({ iteration: 3000 });
      expect(opened.file.architecture).toMatchObject({
        velocityNet: 'reflow_mlp', prediction: 'epsilon', shortcut: false, noiseHead: false, obsDim: 11, nObsSteps: 1, horizon: 4, actionDim: 3,
        velocityHidden: [512, 512, 512], encoderHidden: [], timeEmbedDim: 16, valueHidden: [256, 256, 256], reflow: { activation: 'ReLU', residual: true, layerNorm: false, criticActivation: 'Mish' },
      });
      expect(opened.file.metadata.architecture).toMatchObject({ kind: 'diffusion', denoise_steps: 20 });
      expect(config.policy).toMatchObject({ kind: 'diffusion', denoise_steps: 20, ddim_steps: 0, denoised_clamp: 1, horizon: 4, n_action_steps: 4 });
      expect(decodeFileContents(opened.file).reference).toBeUndefined();
      expect(opened.notes.join('\n')).toContain("no Hydra config found: using DPPO's Gym hopper settings");
      const expected = json<Expected>(PEER, 'expected.json');
      const worst = maxAbsDifference(await epsilon(bundle, expected.x_T.flat(2), expected.obs_normalized.flat(), 7), expected.epsilon_at_t7_from_x_T.flat(2));
      expect(worst).toBeLessThan(1e-5);
    } finally {
      bundle.policy.dispose();
    }
  });

  it("finetuned_5.pt: actor_ft is the policy, actor the reference weights, critic.Q1 the value head, whose V(obs) is DPPO's CriticObs's (1e-5)", async () => {
    const { opened, decoded, bundle } = openAsRun('finetuned_5.pt');
    try {
      expect(opened.file.kind).toBe('diffusion');
      expect(opened.file.metadata.stage).toBe('ppo');
      expect(opened.file.metadata.training).toMatchObject({ iteration: 5 });
      const stored = opened.file.metadata.config as unknown as RunConfig;
      expect(stored.dppo).toMatchObject({ ft_denoising_steps: 10, gamma_denoising: 0.99, clip_base: 0.01, clip_rate: 3, min_sampling_std: 0.1, min_logprob_std: 0.1, randn_clip: 3 });
      expect(stored.ppo).toMatchObject({ clip_low: 0.01, clip_high: 0.01, value_clip: 0, epochs: 5, value_loss: 'mse', logprob_clamp: true, logprob_min: -5, logprob_max: 2 });
      expect({ actor: stored.actor_lr, critic: stored.critic_lr }).toEqual({ actor: 1e-4, critic: 1e-3 });

      // The nets are the file's, tensor for tensor: actor_ft's as the policy, actor's as the reference.
      const top = readTorchCheckpoint(read(PEER, 'finetuned_5.pt').bytes);
      if (!isPickleDict(top)) throw new Error('expected a dict');
      const model = stateDictTensors(top.get('model') as PickleDict);
      const kernel = (name: string) => Array.from(toFloat32(model.get(name)!));
      const transposedOf = (data: Float32Array, rows: number, cols: number) => Array.from({ length: rows * cols }, (_, index) => data[(index % cols) * rows + Math.floor(index / cols)]);
      const main = decoded.tensors.get('velocity.mlp.output.kernel')!;
      const reference = decoded.reference!.get('velocity.mlp.output.kernel')!;
      expect(transposedOf(main.data, 12, 512)).toEqual(kernel('actor_ft.mlp_mean.layers.2.weight'));
      expect(transposedOf(reference.data, 12, 512)).toEqual(kernel('actor.mlp_mean.layers.2.weight'));
      expect(kernel('actor.mlp_mean.layers.2.weight')).not.toEqual(kernel('actor_ft.mlp_mean.layers.2.weight'));
      expect(Array.from(decoded.reference!.get('value.output.bias')!.data)).toEqual(kernel('critic.Q1.layers.2.bias'));

      const batch = json<LossBatch>(PEER, 'ppo_loss_expected.json');
      const obs = (batch.obs_normalized as unknown[]).flat(2) as number[];
      const rows = obs.length / 11;
      const out = tf.tidy(() => bundle.policy.value(bundle.policy.encode({ state: tf.tensor3d(obs, [rows, 1, 11]) })));
      const values = (await out.data()) as Float32Array;
      out.dispose();
      // DPPO's CriticObs on the same observations (scripts/torch-crosscheck/dppo_crosscheck.py critic).
      expect(maxAbsDifference(values, json<{ values: number[] }>(OWN, 'dppo-critic.expected.json').values)).toBeLessThan(1e-5);
      // And DPPO's own loss(): v_loss = ½·mean((V − returns)²) without value clipping.
      const vLoss = 0.5 * Array.from(values).reduce((sum, value, index) => sum + (value - batch.returns[index]) ** 2, 0) / rows;
      expect(Math.abs(vLoss - batch.outputs.v_loss) / batch.outputs.v_loss).toBeLessThan(1e-5);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('one entry reads either peer: DPPO files go to the DPPO reader, ReinFlow files to ReinFlow\'s', () => {
    expect(readPeerCheckpoint(files('state_3000.pt')).kind).toBe('diffusion');
    expect(readPeerCheckpoint(files('finetuned_5.pt')).kind).toBe('diffusion');
    const reinflow = path.resolve(PEER, '../reinflow-hopper');
    const flow = readPeerCheckpoint({ checkpoint: read(reinflow, 'state_40.pt'), normalization: read(reinflow, 'normalization.npz') });
    expect(flow.kind).toBe('flow');
    // A config naming DPPO's model sends the file to the DPPO reader whatever its keys look like.
    const config = 'model:\n  _target_: model.diffusion.diffusion.DiffusionModel\n  denoising_steps: 20\n';
    expect(readPeerCheckpoint(files('state_3000.pt', config)).kind).toBe('diffusion');
  });

  it("a DPPO fine-tuning config's settings become the run config's, in our keys", () => {
    const config = [
      'denoising_steps: 20', 'ft_denoising_steps: 8', 'horizon_steps: 4', 'act_steps: 2', 'cond_steps: 1', 'obs_dim: 11', 'action_dim: 3',
      'train:', '  actor_lr: 2e-4', '  critic_lr: 5e-4', '  update_epochs: 7', '  gamma: 0.98', '  gae_lambda: 0.9', '  vf_coef: 0.25', '  target_kl: null',
      '  reward_scale_running: false', '  batch_size: 50000', '  use_bc_loss: true', '  bc_loss_coeff: 0.05',
      'model:', '  _target_: model.diffusion.diffusion_ppo.PPODiffusion', '  gamma_denoising: 0.95', '  clip_ploss_coef: 0.02', '  clip_ploss_coef_rate: 2',
      '  randn_clip_value: 3', '  min_sampling_denoising_std: 0.08', '  min_logprob_denoising_std: 0.09', '  clip_vloss_coef: 0.5',
      '  clip_advantage_lower_quantile: 0.05', '  clip_advantage_upper_quantile: 0.95', '  denoising_steps: ${denoising_steps}', '  ft_denoising_steps: ${ft_denoising_steps}',
      '  actor:', '    _target_: model.diffusion.mlp_diffusion.DiffusionMLP', '    activation_type: Mish', '  critic:', '    _target_: model.common.critic.CriticObs', '    activation_type: ReLU',
    ].join('\n');
    const imported = readDppoCheckpoint(files('finetuned_5.pt', config));
    expect(imported.architecture.reflow).toMatchObject({ activation: 'Mish', criticActivation: 'ReLU' });
    const { file } = openPeerCheckpoint(files('finetuned_5.pt', config));
    const stored = file.metadata.config as unknown as RunConfig;
    expect(stored.policy).toMatchObject({ kind: 'diffusion', denoise_steps: 20, n_action_steps: 2 });
    // PPODiffusion's own default base clip (1e-3) where its config gives none.
    expect(stored.dppo).toEqual({ ft_denoising_steps: 8, gamma_denoising: 0.95, clip_base: 1e-3, clip_rate: 2, min_sampling_std: 0.08, min_logprob_std: 0.09, randn_clip: 3, adv_quantile_low: 0.05, adv_quantile_high: 0.95 });
    expect(stored.ppo).toMatchObject({ clip_low: 0.02, clip_high: 0.02, value_clip: 0.5, epochs: 7, value_coef: 0.25, target_kl: 0, reward_norm: 'false', bc_coef: 0.05 });
    // DPPO's γ is per decision of act_steps = 2 env steps: √0.98 = 0.98995 per env step.
    expect(stored.advantages.lambda).toBe(0.9);
    expect(stored.advantages.gamma).toBeCloseTo(Math.sqrt(0.98), 12);
    expect({ actor: stored.actor_lr, critic: stored.critic_lr }).toEqual({ actor: 2e-4, critic: 5e-4 });
    expect(imported.notes.join('\n')).toContain('leaves final_action_clip_value unset');
    expect(imported.notes.join('\n')).toContain('train.batch_size');
  });
});
