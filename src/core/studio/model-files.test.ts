import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { TrainingError } from '../errors';
import { flowtuneFile, PICK_CUBE_STATE, smallConfig } from '../run/fixtures/test-checkpoints';
import { readPeerCheckpoint } from '../checkpoint/peers/peer-import';
import { openPeerCheckpoint } from '../run/peer-checkpoint-file';
import { exportModelFiles, exportPeerFiles } from './model-files';

describe('exportModelFiles (Export → files with no run)', () => {
  beforeAll(async () => {
    await useNodeBackend('cpu');
  });

  it('copies the selected checkpoint whole: the .flowtune and the tfjs manifest read back as the same file', async () => {
    const files = await flowtuneFile('runs/lift-bc.flowtune', smallConfig(), PICK_CUBE_STATE);
    const exported = await exportModelFiles(undefined, { files, info: { source: files.name } });
    expect(exported.baseName).toBe('lift-bc');
    const original = parseCheckpointFile(files);
    const flowtune = parseCheckpointFile({ kind: 'flowtune', name: 'copy.flowtune', bytes: exported.flowtune });
    const tfjs = parseCheckpointFile({ kind: 'tfjs', name: 'model.json', modelJson: exported.modelJson, weights: exported.weightsBin });
    for (const copy of [flowtune, tfjs]) {
      expect(copy.metadata).toEqual(original.metadata);
      expect(copy.checked.modelRecords.map((record) => [record.name, record.shape])).toEqual(original.checked.modelRecords.map((record) => [record.name, record.shape]));
    }
  });

  it('refuses in one sentence when there is nothing to export', async () => {
    await expect(exportModelFiles(undefined, undefined)).rejects.toThrow(TrainingError);
    await expect(exportModelFiles(undefined, undefined)).rejects.toThrow('there is no model to export: drop a checkpoint in, or train one first');
  });
});

const DPPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures/peers/dppo-hopper');

describe.skipIf(!existsSync(DPPO))('exportPeerFiles (Export → the peer .pt of a policy of its layout)', () => {
  it("writes a diffusion policy as DPPO's files, which DPPO's reader here takes back with the same tensors", async () => {
    const named = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(DPPO, name))) });
    const opened = openPeerCheckpoint({ checkpoint: named('state_3000.pt'), normalization: named('normalization.npz') }, { task: 'hopper' });
    const exported = await exportPeerFiles(undefined, { files: { kind: 'flowtune', name: 'state_3000.flowtune', bytes: opened.bytes }, info: { source: 'state_3000.pt' } });
    expect(exported.format).toBe('dppo');
    expect(exported.baseName).toBe('state_3000');
    const back = readPeerCheckpoint({ checkpoint: { name: 'state_3000.pt', bytes: exported.pt }, normalization: { name: 'normalization.npz', bytes: exported.normalization } });
    expect(back.kind).toBe('diffusion');
    const original = readPeerCheckpoint({ checkpoint: named('state_3000.pt'), normalization: named('normalization.npz') });
    for (const [name, entry] of original.weights) expect(Array.from(back.weights.get(name)!.data), name).toEqual(Array.from(entry.data));
  });
});
