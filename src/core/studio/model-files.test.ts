import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { TrainingError } from '../errors';
import { flowtuneFile, PICK_CUBE_STATE, smallConfig } from '../run/fixtures/test-checkpoints';
import { exportModelFiles } from './model-files';

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
