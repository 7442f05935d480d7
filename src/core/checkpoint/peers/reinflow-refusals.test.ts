import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPeerCheckpoint } from '../../run/peer-checkpoint-file';
import { isPickleDict, type PickleDict } from '../torch/pickle-values';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { HydraConfig } from './hydra-config';
import { readNormalization } from './peer-normalization';
import { readReinflowCheckpoint, reinflowPolicyOf } from './reinflow-import';

const here = path.dirname(fileURLToPath(import.meta.url));
const PEERS = path.resolve(here, '../../../../../shared/fixtures/peers');
const bytes = (file: string) => new Uint8Array(readFileSync(path.join(PEERS, file)));

function top(file: string): PickleDict {
  const value = readTorchCheckpoint(bytes(file), { label: file });
  if (!isPickleDict(value)) throw new Error('expected a dict');
  return value;
}

const normalization = () => readNormalization({ name: 'normalization.npz', bytes: bytes('reinflow-hopper/normalization.npz') }, 'state_40.pt');

describe.skipIf(!existsSync(PEERS))('a ReinFlow checkpoint that cannot be imported is one sentence', () => {
  it('a state dict missing a layer names the tensor', () => {
    const checkpoint = top('reinflow-hopper/state_40.pt');
    (checkpoint.get('ema') as PickleDict).delete('network.mlp_mean.layers.1.l2.weight');
    expect(() => reinflowPolicyOf(checkpoint, normalization(), 'state_40.pt', undefined, 'normalization.npz'))
      .toThrow("state_40.pt is missing 'network.mlp_mean.layers.1.l2.weight', which the layout its other tensors describe needs");
  });

  it('a tensor of another shape names both shapes', () => {
    const checkpoint = top('reinflow-hopper/state_40.pt');
    const ema = checkpoint.get('ema') as PickleDict;
    ema.set('network.mlp_mean.layers.1.l1.bias', ema.get('network.time_embedding.1.bias') as PickleDict);
    expect(() => reinflowPolicyOf(checkpoint, normalization(), 'state_40.pt', undefined, 'normalization.npz'))
      .toThrow("state_40.pt: 'network.mlp_mean.layers.1.l1.bias' has shape [32] where the layout needs [512]");
  });

  it('a normalization.npz of the wrong size names both sizes', () => {
    const { obs, action } = normalization();
    const short = { obs: { min: obs.min.slice(0, 10), max: obs.max.slice(0, 10) }, action };
    expect(() => reinflowPolicyOf(top('reinflow-hopper/state_40.pt'), short, 'state_40.pt', undefined, 'normalization.npz'))
      .toThrow('state_40.pt reads 11 observation values, which is not a whole history of the 10 observations normalization.npz gives');
    const five = { obs, action: { min: [...action.min, 0, 0], max: [...action.max, 1, 1] } };
    expect(() => reinflowPolicyOf(top('reinflow-hopper/state_40.pt'), five, 'state_40.pt', undefined, 'normalization.npz'))
      .toThrow('state_40.pt outputs 12 action values, which is not a whole chunk of the 5 actions normalization.npz gives');
    // 12 = 3 × 4 is a whole chunk; the run's config says the chunk is 4 × 3.
    const four = { obs, action: { min: [...action.min, 0], max: [...action.max, 1] } };
    const config = HydraConfig.parse('horizon_steps: 4\naction_dim: 3\n', 'config.yaml');
    expect(() => reinflowPolicyOf(top('reinflow-hopper/state_40.pt'), four, 'state_40.pt', config, 'normalization.npz'))
      .toThrow("config.yaml says action_dim: 3, but the checkpoint's tensors with normalization.npz give 4");
  });

  it('sizes that do not fit the task name both', () => {
    const files = {
      checkpoint: { name: 'state_40.pt', bytes: bytes('reinflow-hopper/state_40.pt') },
      normalization: { name: 'normalization.npz', bytes: bytes('reinflow-hopper/normalization.npz') },
    };
    expect(() => openPeerCheckpoint(files, { task: 'walker2d' })).toThrow('state_40.pt reads 11 observations and writes 3 actions, but walker2d gives 17 observations and takes 6 actions');
  });

  it('a .pt without its normalization.npz says what to give', () => {
    expect(() => readReinflowCheckpoint({ checkpoint: { name: 'state_40.pt', bytes: bytes('reinflow-hopper/state_40.pt') } }))
      .toThrow('state_40.pt needs its normalization.npz (obs_min, obs_max, action_min, action_max): put it beside the checkpoint or give normalization=FILE.npz');
  });

  it("DPPO's look-alike pretraining file is told apart, and a config naming another model is refused", () => {
    expect(() => reinflowPolicyOf(top('dppo-hopper/state_3000.pt'), normalization(), 'state_3000.pt', undefined, 'normalization.npz'))
      .toThrow(/state_3000.pt looks like DPPO's DiffusionModel checkpoint/);
    const config = HydraConfig.parse('model:\n  _target_: model.diffusion.diffusion.DiffusionModel\n', 'config.yaml');
    expect(() => reinflowPolicyOf(top('reinflow-hopper/state_40.pt'), normalization(), 'state_40.pt', config, 'normalization.npz'))
      .toThrow("state_40.pt: its config's model is model.diffusion.diffusion.DiffusionModel; this build imports ReinFlow's ReFlow, ShortCutFlow, PPOFlow and PPOShortCut, and DPPO's DiffusionModel and PPODiffusion");
  });

  it("a Hydra config's activation and sampler settings are used, with its ${...} references resolved", () => {
    const config = HydraConfig.parse([
      'denoising_steps: 8', 'horizon_steps: 4', 'act_steps: 2',
      'model:', '  policy:', '    activation_type: Mish', '  critic:', '    activation_type: ReLU',
      '  inference_steps: ${denoising_steps}', '  denoised_clip_value: 0.9', '  explore_net_activation_type: ELU',
      'train:', '  clip_intermediate_actions: true',
    ].join('\n'), 'config.yaml');
    const imported = reinflowPolicyOf(top('reinflow-hopper/finetuned_120.pt'), normalization(), 'finetuned_120.pt', config, 'normalization.npz');
    expect(imported.architecture.reflow).toMatchObject({ activation: 'Mish', criticActivation: 'ReLU', noiseActivation: 'ELU' });
    expect(imported.settings).toMatchObject({ denoiseSteps: 8, nActionSteps: 2, denoisedClamp: 0.9 });
    expect(imported.notes.join('\n')).not.toContain('no Hydra config');
  });
});
