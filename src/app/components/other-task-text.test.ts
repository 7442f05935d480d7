import { describe, expect, it } from 'vitest';
import type { CheckpointForOtherTask } from '../../protocol/trainer-api';
import { otherTaskText } from './other-task-text';

const liftFile: CheckpointForOtherTask = { kind: 'other-task', source: 'lift-bc.flowtune', task: 'lift', obsType: 'state', studioTask: 'pick-cube', known: true };

describe('otherTaskText', () => {
  it('with no run, names the file\'s task and leads to the switch, never to a run that does not exist', () => {
    const text = otherTaskText(liftFile, undefined);
    expect(text).toBe("lift-bc.flowtune is a checkpoint for task 'lift'; the studio is set to 'pick-cube'. Switch the task to use it:");
    expect(text).not.toContain('run');
  });

  it('with a run, says to Reset first; with a demos stage, to let it end; for an unknown task, to add it', () => {
    expect(otherTaskText(liftFile, 'run')).toBe("lift-bc.flowtune is a checkpoint for task 'lift', and the current run trains 'pick-cube': Reset the run, then switch the task to 'lift' to use it");
    expect(otherTaskText(liftFile, 'demos')).toMatch(/a New-from-demos stage is using 'pick-cube': let it finish or discard it, then switch the task to 'lift'/);
    expect(otherTaskText({ ...liftFile, known: false, obsType: 'pointcloud' }, undefined))
      .toBe("lift-bc.flowtune is a checkpoint for task 'lift' (point cloud), which this studio does not have: add that task, then drop the file again");
  });
});
