import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { flowtuneFile, PICK_CUBE_STATE, smallConfig } from '../run/fixtures/test-checkpoints';
import { checkpointForOtherTask } from './checkpoint-task';

describe('checkpointForOtherTask (a dropped file of another task is a choice the page offers)', () => {
  beforeAll(async () => {
    await useNodeBackend('cpu');
  });

  it('is undefined for the studio\'s task, and names both tasks and the file\'s observation kind otherwise', async () => {
    const file = parseCheckpointFile(await flowtuneFile('pick.flowtune', smallConfig(), PICK_CUBE_STATE));
    expect(file.task).toBe('pick-cube');
    expect(checkpointForOtherTask(file, 'pick-cube')).toBeUndefined();
    expect(checkpointForOtherTask(file, 'reach')).toEqual({ kind: 'other-task', source: 'pick.flowtune', task: 'pick-cube', studioTask: 'reach', known: true, obsType: 'state' });
  });
});
