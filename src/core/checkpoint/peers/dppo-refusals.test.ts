import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPeerCheckpoint } from '../../run/peer-checkpoint-file';
import { isPickleDict, type PickleDict } from '../torch/pickle-values';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { dppoPolicyOf, readDppoCheckpoint } from './dppo-import';
import { HydraConfig } from './hydra-config';
import { readNormalization } from './peer-normalization';
import { readPeerCheckpoint } from './peer-import';

const here = path.dirname(fileURLToPath(import.meta.url));
const PEER = path.resolve(here, '../../../../../shared/fixtures/peers/dppo-hopper');
const bytes = (file: string) => new Uint8Array(readFileSync(path.join(PEER, file)));

function top(file: string): PickleDict {
  const value = readTorchCheckpoint(bytes(file), { label: file });
  if (!isPickleDict(value)) throw new Error('expected a dict');
  return value;
}

const normalization = () => readNormalization({ name: 'normalization.npz', bytes: bytes('normalization.npz') }, 'state_3000.pt');
const config = (...lines: string[]) => HydraConfig.parse(lines.join('\n'), 'config.yaml');
const read = (file: string, hydra?: HydraConfig) => dppoPolicyOf(top(file), normalization(), file, hydra, 'normalization.npz');

describe.skipIf(!existsSync(PEER))('a DPPO checkpoint that cannot be imported is one sentence', () => {
  it('a .pt without its normalization.npz says what to give', () => {
    const message = 'state_3000.pt needs its normalization.npz (obs_min, obs_max, action_min, action_max): put it beside the checkpoint or give normalization=FILE.npz';
    expect(() => readDppoCheckpoint({ checkpoint: { name: 'state_3000.pt', bytes: bytes('state_3000.pt') } })).toThrow(message);
    expect(() => readPeerCheckpoint({ checkpoint: { name: 'state_3000.pt', bytes: bytes('state_3000.pt') } })).toThrow(message);
  });

  it('a state dict missing a layer names the tensor', () => {
    const checkpoint = top('state_3000.pt');
    (checkpoint.get('ema') as PickleDict).delete('network.mlp_mean.layers.1.l2.weight');
    expect(() => dppoPolicyOf(checkpoint, normalization(), 'state_3000.pt', undefined, 'normalization.npz'))
      .toThrow("state_3000.pt is missing 'network.mlp_mean.layers.1.l2.weight', which the layout its other tensors describe needs");
    const finetuned = top('finetuned_5.pt');
    (finetuned.get('model') as PickleDict).delete('critic.Q1.layers.1.l1.bias');
    expect(() => dppoPolicyOf(finetuned, normalization(), 'finetuned_5.pt', undefined, 'normalization.npz'))
      .toThrow("finetuned_5.pt is missing 'critic.Q1.layers.1.l1.bias', which the layout its other tensors describe needs");
  });

  it('a tensor of another shape names both shapes, and one the layout lacks is named', () => {
    const checkpoint = top('state_3000.pt');
    const ema = checkpoint.get('ema') as PickleDict;
    ema.set('network.mlp_mean.layers.1.l1.bias', ema.get('network.time_embedding.1.bias') as PickleDict);
    expect(() => dppoPolicyOf(checkpoint, normalization(), 'state_3000.pt', undefined, 'normalization.npz'))
      .toThrow("state_3000.pt: 'network.mlp_mean.layers.1.l1.bias' has shape [32] where the layout needs [512]");
    const finetuned = top('finetuned_5.pt');
    const model = finetuned.get('model') as PickleDict;
    model.set('actor_ft.mlp_mean.extra.weight', model.get('actor_ft.mlp_mean.layers.2.bias') as PickleDict);
    expect(() => dppoPolicyOf(finetuned, normalization(), 'finetuned_5.pt', undefined, 'normalization.npz'))
      .toThrow("finetuned_5.pt holds 'actor_ft.mlp_mean.extra.weight', which DPPO's DiffusionMLP and CriticObs layout this build reads does not have");
  });

  it('sizes that do not fit the task name both', () => {
    const files = { checkpoint: { name: 'state_3000.pt', bytes: bytes('state_3000.pt') }, normalization: { name: 'normalization.npz', bytes: bytes('normalization.npz') } };
    expect(() => openPeerCheckpoint(files, { task: 'walker2d' })).toThrow('state_3000.pt reads 11 observations and writes 3 actions, but walker2d gives 17 observations and takes 6 actions');
    expect(() => read('state_3000.pt', config('horizon_steps: 2'))).toThrow("config.yaml says horizon_steps: 2, but the checkpoint's tensors with normalization.npz give 4");
  });

  it('a base net that differs from its network.* copy (DPPO annealed the fine-tuned steps) is refused', () => {
    const finetuned = top('finetuned_5.pt');
    const model = finetuned.get('model') as PickleDict;
    model.set('network.mlp_mean.layers.2.bias', model.get('actor_ft.mlp_mean.layers.2.bias') as PickleDict);
    expect(() => dppoPolicyOf(finetuned, normalization(), 'finetuned_5.pt', undefined, 'normalization.npz'))
      .toThrow("finetuned_5.pt's base net 'actor.*' differs from 'network.*' (at 'network.mlp_mean.layers.2.bias'), as after DPPO annealed ft_denoising_steps; the fine-tuned step count is then not in the file, so this build does not import it");
  });

  it('a DDIM eta is read from the file: without the config that says DDIM, or other than 1, it is refused', () => {
    const withEta = () => {
      const finetuned = top('finetuned_5.pt');
      const model = finetuned.get('model') as PickleDict;
      model.set('eta.eta_logit', model.get('critic.Q1.layers.2.bias') as PickleDict);
      return finetuned;
    };
    expect(() => dppoPolicyOf(withEta(), normalization(), 'finetuned_5.pt', undefined, 'normalization.npz'))
      .toThrow("finetuned_5.pt holds DDIM's eta but no config says its DDIM steps (use_ddim, ddim_steps); give peer_config=FILE.yaml");
    const ddim = config('model:', '  use_ddim: true', '  ddim_steps: 10', '  denoising_steps: 20');
    expect(() => dppoPolicyOf(withEta(), normalization(), 'finetuned_5.pt', ddim, 'normalization.npz')).toThrow(/^finetuned_5.pt's DDIM eta is 0\.\d+; this build's stochastic DDIM steps take DPPO's η = 1$/);
  });

  it('what this build would not run as DPPO does is refused, naming the setting', () => {
    const cases: Array<[string[], string]> = [
      [['model:', '  predict_epsilon: false'], 'state_3000.pt: config.yaml sets predict_epsilon: false (the net predicts x_0); this build runs ε-prediction diffusion policies'],
      [['model:', '  use_ddim: true', '  ddim_steps: 5', '  learn_eta: true'], "state_3000.pt: config.yaml sets learn_eta: true; this build's stochastic DDIM steps take DPPO's fixed η = 1"],
      [['model:', '  final_action_clip_value: 0.5'], "state_3000.pt: config.yaml sets final_action_clip_value: 0.5; this build clips the chain's last step to ±1"],
      [['model:', '  ft_denoising_steps_d: 1', '  ft_denoising_steps_t: 10'], 'state_3000.pt: config.yaml anneals ft_denoising_steps (by 1 every 10 iterations), so the count at saving is not in the file; this build fine-tunes a fixed count'],
      [['model:', '  _target_: model.diffusion.diffusion_ppo_exact.PPOExactDiffusion'], "state_3000.pt: config.yaml names the model model.diffusion.diffusion_ppo_exact.PPOExactDiffusion; this build imports DPPO's DiffusionModel and PPODiffusion"],
      [['model:', '  network:', '    _target_: model.diffusion.unet.Unet1D'], "state_3000.pt: config.yaml names the denoising net model.diffusion.unet.Unet1D; this build reads DPPO's DiffusionMLP"],
      [['model:', '  network:', '    out_activation_type: Tanh'], 'state_3000.pt: config.yaml gives DiffusionMLP the output activation Tanh; this build reads it with none (Identity)'],
      [['model:', '  use_ddim: true', '  ddim_steps: 5', '  eta:', '    base_eta: 0.5'], "state_3000.pt: config.yaml sets the DDIM eta's base_eta: 0.5; this build's stochastic DDIM steps take η = 1"],
    ];
    for (const [lines, message] of cases) expect(() => read('state_3000.pt', config(...lines)), lines.join(' ')).toThrow(message);
  });

  it('settings that make no run config are one sentence', () => {
    const files = {
      checkpoint: { name: 'state_3000.pt', bytes: bytes('state_3000.pt') },
      normalization: { name: 'normalization.npz', bytes: bytes('normalization.npz') },
      config: { name: 'config.yaml', text: 'model:\n  denoising_steps: 20\n  use_ddim: true\n  ddim_steps: 3\n' },
    };
    expect(() => openPeerCheckpoint(files)).toThrow(/^the settings read with the checkpoint do not make a run config: policy\.ddim_steps \(3\) must divide policy\.denoise_steps \(20\)/);
  });
});
