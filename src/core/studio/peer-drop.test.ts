import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { defaultConfig, setField } from '../config';
import { describeCheckpointPolicy } from '../run/describe-checkpoint';
import { flowtuneFile, PICK_CUBE_STATE, smallConfig } from '../run/fixtures/test-checkpoints';
import { openCheckpoint, parseCheckpointFile } from '../run/open-checkpoint';
import type { PeerCheckpointDrop } from '../../protocol/run-control-api';
import { checkpointForOtherTask } from './checkpoint-task';
import { exportModelFiles } from './model-files';
import { openDroppedCheckpoint } from './peer-drop';
import { pickPeerDrop } from './peer-drop-files';

const here = path.dirname(fileURLToPath(import.meta.url));
const HOPPER = path.resolve(here, '../../../../shared/fixtures/peers/reinflow-hopper');
const DPPO_HOPPER = path.resolve(HOPPER, '../dppo-hopper');
const bytes = (file: string, folder = HOPPER) => new Uint8Array(readFileSync(path.join(folder, file)));

function drop(checkpoint: string, extra: Partial<PeerCheckpointDrop> = {}, folder = HOPPER): PeerCheckpointDrop {
  return {
    kind: 'reinflow',
    checkpoint: { name: checkpoint, bytes: bytes(checkpoint, folder) },
    normalization: { name: 'normalization.npz', bytes: bytes('normalization.npz', folder) },
    ...extra,
  };
}

describe('pickPeerDrop: which dropped files make a ReinFlow checkpoint', () => {
  const files = (...paths: string[]) => paths.map((file) => ({ path: file }));

  it('leaves drops without a .pt to the other readers', () => {
    expect(pickPeerDrop(files('run.flowtune'))).toBeUndefined();
    expect(pickPeerDrop(files('model.json', 'model.weights.bin'))).toBeUndefined();
  });

  it('a .pt alone is one sentence', () => {
    expect(pickPeerDrop(files('state_40.pt'))).toBe('state_40.pt needs its normalization.npz: drop them together (or their folder)');
    expect(pickPeerDrop(files('/run/checkpoint/state_40.pt', '/run/.hydra/config.yaml'))).toBe('state_40.pt needs its normalization.npz: drop them together (or their folder)');
  });

  it('takes the .pt with its normalization.npz and the run\'s Hydra config from loose files or a folder', () => {
    expect(pickPeerDrop(files('state_40.pt', 'normalization.npz'))).toEqual({ checkpoint: { path: 'state_40.pt' }, normalization: { path: 'normalization.npz' } });
    const folder = files('/run/.hydra/hydra.yaml', '/run/.hydra/overrides.yaml', '/run/.hydra/config.yaml', '/run/checkpoint/state_40.pt', '/run/normalization.npz', '/run/train.npz');
    expect(pickPeerDrop(folder)).toEqual({
      checkpoint: { path: '/run/checkpoint/state_40.pt' }, normalization: { path: '/run/normalization.npz' }, config: { path: '/run/.hydra/config.yaml' },
    });
    // One .npz of another name, and one .yaml, are taken as the files meant.
    expect(pickPeerDrop(files('state_40.pt', 'hopper-normalization.npz', 'ft_ppo_reflow_mlp.yaml'))).toEqual({
      checkpoint: { path: 'state_40.pt' }, normalization: { path: 'hopper-normalization.npz' }, config: { path: 'ft_ppo_reflow_mlp.yaml' },
    });
  });

  it('several candidates are one sentence naming them', () => {
    expect(pickPeerDrop(files('/peers/state_40.pt', '/peers/finetuned_120.pt', '/peers/normalization.npz')))
      .toBe('the drop holds 2 checkpoints (finetuned_120.pt, state_40.pt): drop one .pt with its normalization.npz');
    expect(pickPeerDrop(files('state_40.pt', 'a.npz', 'b.npz')))
      .toBe('state_40.pt needs its normalization.npz, and the drop holds a.npz, b.npz without one of that name: drop the one that goes with it');
    expect(pickPeerDrop(files('state_40.pt', 'normalization.npz', 'a.yaml', 'b.yaml')))
      .toBe("the drop holds a.yaml, b.yaml but no config.yaml: drop the run's .hydra/config.yaml with the checkpoint, or none");
  });
});

describe('openDroppedCheckpoint', () => {
  beforeAll(async () => {
    await useNodeBackend('cpu');
  });

  it('opens our own files as they are, with no notes', async () => {
    const files = await flowtuneFile('mine.flowtune', smallConfig(), PICK_CUBE_STATE);
    const opened = openDroppedCheckpoint(files, 'pick-cube');
    expect(opened.files).toBe(files);
    expect(opened.file.task).toBe('pick-cube');
    expect(opened.notes).toEqual([]);
  });

  describe.skipIf(!existsSync(HOPPER))('a ReinFlow drop (../shared/fixtures/peers/reinflow-hopper)', () => {
    it('converts state_40.pt once into a hopper .flowtune under its own name, with notes in the studio\'s words', () => {
      const opened = openDroppedCheckpoint(drop('state_40.pt'), 'hopper');
      expect(opened.files.kind).toBe('flowtune');
      expect(opened.files.name).toBe('state_40.pt');
      expect(opened.file.name).toBe('state_40.pt');
      expect(opened.file.task).toBe('hopper');
      expect(opened.notes[0]).toBe('state_40.pt: read with normalization.npz');
      expect(opened.notes[1]).toMatch(/^no Hydra config found: using ReinFlow's Gym hopper settings \(activation ReLU, .*\); drop the run's \.hydra\/config\.yaml with it if the run used others$/);
      expect(opened.notes.join('\n')).toContain('the noise net and critic start fresh');
      expect(opened.notes.join('\n')).not.toMatch(/peer_config=|task=/);
      // The trainer keeps the converted bytes: parsed again, they are the same checkpoint.
      const again = parseCheckpointFile(opened.files);
      expect(again.task).toBe('hopper');
      const { checkpoint } = openCheckpoint(again, setField(defaultConfig(), 'task', 'hopper'));
      expect(describeCheckpointPolicy(checkpoint)).toBe('state · ReinFlow FlowMLP [512, 512, 512], ReLU · H 4 · K 4 · obs 11 · act 3');
      expect(checkpoint.metadata.stage).toBe('bc');
    });

    it('Export copies the converted .flowtune, named after the .pt', async () => {
      const opened = openDroppedCheckpoint(drop('state_40.pt'), 'hopper');
      const exported = await exportModelFiles(undefined, { files: opened.files, info: { source: opened.files.name } });
      expect(exported.baseName).toBe('state_40');
      expect(parseCheckpointFile({ kind: 'flowtune', name: 'state_40.flowtune', bytes: exported.flowtune }).metadata).toEqual(opened.file.metadata);
    });

    it('on another task whose sizes do not fit, it becomes hopper\'s file, and the studio offers to switch', () => {
      const opened = openDroppedCheckpoint(drop('state_40.pt'), 'pick-cube');
      expect(opened.file.task).toBe('hopper');
      expect(checkpointForOtherTask(opened.file, 'pick-cube')).toMatchObject({ kind: 'other-task', source: 'state_40.pt', task: 'hopper', studioTask: 'pick-cube', known: true });
    });

    it('finetuned_120.pt brings its noise net and critic, and a dropped config is read', () => {
      const config = { name: 'run/.hydra/config.yaml', text: 'denoising_steps: 4\nmodel:\n  policy:\n    activation_type: ReLU\n' };
      const opened = openDroppedCheckpoint(drop('finetuned_120.pt', { config }), 'hopper');
      expect(opened.notes[0]).toBe('finetuned_120.pt: read with normalization.npz and run/.hydra/config.yaml');
      expect(opened.notes.join('\n')).not.toContain('no Hydra config found');
      expect(opened.notes.join('\n')).toMatch(/exploration-noise net \(std [\d.]+-[\d.]+\) and critic/);
      expect(parseCheckpointFile(opened.files).metadata.stage).toBe('ppo');
    });

    it('a problem is one sentence in the studio\'s words', () => {
      const { normalization: _normalization, ...alone } = drop('state_40.pt');
      expect(() => openDroppedCheckpoint(alone, 'hopper')).toThrow(/^state_40\.pt needs its normalization\.npz \(obs_min, obs_max, action_min, action_max\): drop them together \(or their folder\)$/);
      expect(() => openDroppedCheckpoint(drop('normalization.npz'), 'hopper')).toThrow(/^normalization\.npz/);
    });
  });

  describe.skipIf(!existsSync(DPPO_HOPPER))('a DPPO drop (../shared/fixtures/peers/dppo-hopper)', () => {
    it('state_3000.pt becomes a hopper diffusion policy, its notes in the studio\'s words', () => {
      const opened = openDroppedCheckpoint(drop('state_3000.pt', {}, DPPO_HOPPER), 'hopper');
      expect(opened.file.kind).toBe('diffusion');
      expect(opened.file.task).toBe('hopper');
      expect(opened.notes[1]).toMatch(/^no Hydra config found: using DPPO's Gym hopper settings \(.*\); drop the run's \.hydra\/config\.yaml with it if the run used others$/);
      expect(parseCheckpointFile(opened.files).metadata.stage).toBe('bc');
    });

    it('finetuned_5.pt keeps its base net as the reference weights', () => {
      const opened = openDroppedCheckpoint(drop('finetuned_5.pt', {}, DPPO_HOPPER), 'hopper');
      const again = parseCheckpointFile(opened.files);
      expect(again.metadata.stage).toBe('ppo');
      expect(again.kind).toBe('diffusion');
      const { checkpoint } = openCheckpoint(again, setField(defaultConfig(), 'task', 'hopper'));
      expect(checkpoint.kind === 'diffusion' && checkpoint.reference?.has('velocity.mlp.output.kernel')).toBe(true);
    });
  });
});
