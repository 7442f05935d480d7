import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPeerCheckpoint } from '../../run/peer-checkpoint-file';
import { decodeFileContents } from '../checkpoint-file';
import { readNpz } from '../torch/npz-reader';
import { writeNpz } from '../torch/npz-writer';
import { isPickleDict, stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { toFloat32 } from '../torch/tensor-dtypes';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { writeTorchCheckpoint } from '../torch/torch-pt-writer';
import { dppoExport } from './dppo-export';
import { readDppoCheckpoint } from './dppo-import';
import { reinflowExport } from './reinflow-export';

const here = path.dirname(fileURLToPath(import.meta.url));
const PEER = path.resolve(here, '../../../../../shared/fixtures/peers/dppo-hopper');

const read = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(PEER, name))) });
const files = (checkpoint: string) => ({ checkpoint: read(checkpoint), normalization: read('normalization.npz') });

/** Imports, exports as DPPO's files, and reads those back with our reader. */
function roundTrip(checkpoint: string, keepReference = true) {
  const { file } = openPeerCheckpoint(files(checkpoint));
  if (file.kind !== 'diffusion') throw new Error('expected a diffusion checkpoint');
  const decoded = decodeFileContents(file);
  const exported = dppoExport({ name: checkpoint, architecture: file.architecture, tensors: decoded.tensors, metadata: decoded.metadata, ...(keepReference ? { reference: decoded.reference } : {}) });
  const pt = writeTorchCheckpoint(exported.checkpoint, { archiveName: 'exported' });
  const npz = writeNpz(exported.normalization);
  const back = readDppoCheckpoint({ checkpoint: { name: 'exported.pt', bytes: pt }, normalization: { name: 'normalization.npz', bytes: npz } });
  return { file, decoded, exported, pt, npz, back, original: readDppoCheckpoint(files(checkpoint)) };
}

/** Whether two float arrays hold the same values, element for element. */
const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.prototype.every.call(a, (value: number, index: number) => value === b[index]);

function expectSameWeights(actual: ReadonlyMap<string, { data: Float32Array }> | undefined, expected: ReadonlyMap<string, { data: Float32Array }> | undefined) {
  expect([...(actual ?? new Map()).keys()].sort()).toEqual([...(expected ?? new Map()).keys()].sort());
  for (const [name, entry] of expected ?? []) expect(same(actual!.get(name)!.data, entry.data), name).toBe(true);
}

function topDict(bytes: Uint8Array): PickleDict {
  const value = readTorchCheckpoint(bytes);
  if (!isPickleDict(value)) throw new Error('expected a dict');
  return value;
}

const stateDict = (bytes: Uint8Array, key: string) => stateDictTensors(topDict(bytes).get(key) as PickleDict);

describe.skipIf(!existsSync(PEER))("going back: DPPO's hopper checkpoints, imported and written as DPPO's files", () => {
  it("the pretraining file comes back as DiffusionModel's {epoch, model, ema}: the same keys, shapes and values", () => {
    const { back, original, pt, exported } = roundTrip('state_3000.pt');
    expect(exported.layout).toBe('pretrain');
    expect([...topDict(pt).keys()]).toEqual(['epoch', 'model', 'ema']);
    expect(topDict(pt).get('epoch')).toBe(3000);
    expectSameWeights(back.weights, original.weights);
    expect(back.architecture).toEqual(original.architecture);
    const source = stateDict(read('state_3000.pt').bytes, 'ema');
    for (const key of ['ema', 'model']) {
      const written = stateDict(pt, key);
      expect([...written.keys()].sort()).toEqual([...source.keys()].sort());
      for (const [name, tensor] of source) {
        expect(written.get(name)!.shape, name).toEqual(tensor.shape);
        expect(same(toFloat32(written.get(name)!), toFloat32(tensor)), name).toBe(true);
      }
    }
    expect(exported.notes.join('\n')).toContain('set in its config: denoising_steps: 20, horizon_steps: 4, act_steps: 4, cond_steps: 1, activation_type: ReLU, denoised_clip_value: 1, final_action_clip_value: 1, randn_clip_value: 3');
  });

  it("the fine-tuned file comes back in PPODiffusion's layout: exactly finetuned_5.pt's keys and tensors", () => {
    const { back, original, pt, npz, exported } = roundTrip('finetuned_5.pt');
    expect(exported.layout).toBe('finetune');
    expect([...topDict(pt).keys()]).toEqual(['itr', 'model']);
    expect(topDict(pt).get('itr')).toBe(5);
    expectSameWeights(back.weights, original.weights);
    expectSameWeights(back.reference, original.reference);
    const source = stateDict(read('finetuned_5.pt').bytes, 'model');
    const written = stateDict(pt, 'model');
    expect([...written.keys()].sort()).toEqual([...source.keys()].sort());
    for (const [name, tensor] of source) expect(same(toFloat32(written.get(name)!), toFloat32(tensor)), name).toBe(true);
    const arrays = readNpz(npz);
    expect([...arrays.keys()]).toEqual(['obs_min', 'obs_max', 'action_min', 'action_max']);
    expect(Array.from(arrays.get('action_max')!.data as Float32Array)).toEqual(Array.from(readNpz(read('normalization.npz').bytes).get('action_max')!.data as Float32Array));
  });

  it('a fine-tuned policy without a kept base net writes its own net as the base', () => {
    const { pt, exported } = roundTrip('finetuned_5.pt', false);
    const written = stateDict(pt, 'model');
    const fineTuned = toFloat32(written.get('actor_ft.mlp_mean.layers.2.weight')!);
    expect(same(toFloat32(written.get('actor.mlp_mean.layers.2.weight')!), fineTuned)).toBe(true);
    expect(same(toFloat32(written.get('network.mlp_mean.layers.2.weight')!), fineTuned)).toBe(true);
    expect(exported.notes.join('\n')).toContain('hold the fine-tuned net too');
  });

  it('a policy of another family or layout is one sentence', () => {
    const { file, decoded } = roundTrip('state_3000.pt');
    const source = { name: 'hopper.flowtune', tensors: decoded.tensors, metadata: decoded.metadata };
    expect(() => dppoExport({ ...source, architecture: { ...file.architecture, prediction: 'velocity' } }))
      .toThrow('format=dppo writes a diffusion policy, and hopper.flowtune holds a flow policy; export it with format=reinflow');
    expect(() => dppoExport({ ...source, architecture: { ...file.architecture, velocityNet: 'mlp' } }))
      .toThrow("format=dppo writes DPPO's DiffusionMLP layout, and hopper.flowtune's ε net is 'mlp'; start from a DPPO checkpoint or train with policy.velocity_net=reflow_mlp");
    expect(() => reinflowExport({ ...source, architecture: file.architecture }))
      .toThrow('format=reinflow writes a flow policy, and hopper.flowtune holds a diffusion policy; export it with format=dppo');
  });
});
