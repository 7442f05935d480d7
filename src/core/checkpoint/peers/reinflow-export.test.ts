import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeFileContents } from '../checkpoint-file';
import { openPeerCheckpoint } from '../../run/peer-checkpoint-file';
import { readNpz } from '../torch/npz-reader';
import { writeNpz } from '../torch/npz-writer';
import { isPickleDict, stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { writeTorchCheckpoint } from '../torch/torch-pt-writer';
import { obsClipNotes, reinflowExport } from './reinflow-export';
import { readReinflowCheckpoint } from './reinflow-import';

const here = path.dirname(fileURLToPath(import.meta.url));
const PEER = path.resolve(here, '../../../../../shared/fixtures/peers/reinflow-hopper');
const OWN = path.join(here, 'fixtures');

const read = (folder: string, name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(folder, name))) });

/** Imports, exports as ReinFlow's files, and reads those back with our reader. */
function roundTrip(folder: string, checkpoint: string, config?: string) {
  const files = { checkpoint: read(folder, checkpoint), normalization: read(folder, 'normalization.npz'), ...(config ? { config: { name: 'config.yaml', text: config } } : {}) };
  const { file } = openPeerCheckpoint(files);
  if (file.kind !== 'flow') throw new Error('expected a flow checkpoint');
  const decoded = decodeFileContents(file);
  const exported = reinflowExport({ name: checkpoint, architecture: file.architecture, tensors: decoded.tensors, metadata: decoded.metadata });
  const pt = writeTorchCheckpoint(exported.checkpoint, { archiveName: 'exported' });
  const npz = writeNpz(exported.normalization);
  const back = readReinflowCheckpoint({ checkpoint: { name: 'exported.pt', bytes: pt }, normalization: { name: 'normalization.npz', bytes: npz }, ...(config ? { config: { name: 'config.yaml', text: config } } : {}) });
  return { file, decoded, exported, pt, npz, back, original: readReinflowCheckpoint(files) };
}

function expectSameWeights(actual: ReadonlyMap<string, { data: Float32Array }>, expected: ReadonlyMap<string, { data: Float32Array }>) {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [name, entry] of expected) expect(Array.from(actual.get(name)!.data), name).toEqual(Array.from(entry.data));
}

function topKeys(bytes: Uint8Array, key: string): string[] {
  const value = readTorchCheckpoint(bytes);
  if (!isPickleDict(value)) throw new Error('expected a dict');
  return [...stateDictTensors(value.get(key) as PickleDict).keys()].sort();
}

describe.skipIf(!existsSync(PEER))("going back: ReinFlow's hopper checkpoints, imported and written as ReinFlow's files", () => {
  it('the pretraining file comes back with the same tensor names and values, under model and ema', () => {
    const { back, original, pt, exported } = roundTrip(PEER, 'state_40.pt');
    expect(exported.layout).toBe('pretrain');
    expectSameWeights(back.weights, original.weights);
    expect(back.architecture).toEqual(original.architecture);
    const source = new Uint8Array(readFileSync(path.join(PEER, 'state_40.pt')));
    expect(topKeys(pt, 'ema')).toEqual(topKeys(source, 'ema'));
    expect(topKeys(pt, 'model')).toEqual(topKeys(source, 'model'));
  });

  it("the fine-tuned file comes back in PPOFlow's layout: the same keys as ReinFlow's own file, the same net, noise net and critic", () => {
    const { back, original, pt, npz, exported } = roundTrip(PEER, 'finetuned_120.pt');
    expect(exported.layout).toBe('finetune');
    expect(topKeys(pt, 'model')).toEqual(topKeys(new Uint8Array(readFileSync(path.join(PEER, 'finetuned_120.pt'))), 'model'));
    expectSameWeights(back.weights, original.weights);
    expect(back.settings.stdMin).toBeCloseTo(original.settings.stdMin, 6);
    expect(back.settings.stdMax).toBeCloseTo(original.settings.stdMax, 6);
    const arrays = readNpz(npz);
    expect([...arrays.keys()]).toEqual(['obs_min', 'obs_max', 'action_min', 'action_max']);
    expect(Array.from(arrays.get('obs_min')!.data as Float32Array)).toEqual(Array.from(readNpz(read(PEER, 'normalization.npz').bytes).get('obs_min')!.data as Float32Array));
  });
});

describe("going back: ReinFlow's ShortCutFlow", () => {
  it('comes back with its t_emb, cond_emb and vel_head names and values', () => {
    const config = 'model:\n  network:\n    activation_type: SiLU\n    embed_combination_type: add\n';
    const { back, original, pt } = roundTrip(OWN, 'shortcut-add.pt', config);
    expectSameWeights(back.weights, original.weights);
    expect(topKeys(pt, 'ema')).toEqual(topKeys(read(OWN, 'shortcut-add.pt').bytes, 'ema'));
  });

  it('a policy of another layout is one sentence', () => {
    const { file, decoded } = roundTrip(OWN, 'shortcut-concate.pt');
    if (file.kind !== 'flow') throw new Error('expected a flow checkpoint');
    expect(() => reinflowExport({ name: 'hopper-bc.flowtune', architecture: { ...file.architecture, velocityNet: 'mlp' }, tensors: decoded.tensors, metadata: decoded.metadata }))
      .toThrow("format=reinflow writes ReinFlow's FlowMLP layout, and hopper-bc.flowtune holds a 'mlp' velocity net; start from a ReinFlow checkpoint or train with policy.velocity_net=reflow_mlp");
  });
});

describe('going back with an observation clamp, which normalization.npz cannot hold', () => {
  it('says so in one note: clamp_obs repeats a clamp at 1 there, and nothing repeats another bound', () => {
    const { file, decoded } = roundTrip(OWN, 'shortcut-concate.pt');
    if (file.kind !== 'flow') throw new Error('expected a flow checkpoint');
    const withClip = (clip: number) => ({ ...decoded.metadata, normalizer: { ...decoded.metadata.normalizer, obs: { ...(decoded.metadata.normalizer.obs as object), clip } } });
    const notesOf = (metadata: typeof decoded.metadata) => reinflowExport({ name: 'clamped.flowtune', architecture: file.architecture, tensors: decoded.tensors, metadata }).notes;
    expect(notesOf(decoded.metadata).join('\n')).not.toContain('clamps its normalized observations');
    expect(obsClipNotes(decoded.metadata)).toEqual([]);
    expect(notesOf(withClip(1))).toContain('this policy clamps its normalized observations to [-1, 1] (policy.obs_clip=1), which normalization.npz cannot hold; set clamp_obs: true in the env wrapper config there');
    expect(notesOf(withClip(5))).toContain('this policy clamps its normalized observations to ±5 (policy.obs_clip=5), which normalization.npz cannot hold and the env wrappers there (clamp_obs, ±1 only) cannot repeat, so its actions on states beyond that range can differ');
    // The normalization arrays are the same four either way.
    expect(Object.keys(reinflowExport({ name: 'clamped.flowtune', architecture: file.architecture, tensors: decoded.tensors, metadata: withClip(5) }).normalization)).toEqual(['obs_min', 'obs_max', 'action_min', 'action_max']);
  });
});
