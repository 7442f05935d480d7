import { describe, expect, it } from 'vitest';
import { getTask } from '../envs/task-registry';
import { compileTask } from '../envs/task-definition';
import { checkTaskVersion, type FlowtuneMetadata } from './metadata';

const madeOn = (taskHash: string | undefined) => ({ task: 'pick-cube', ...(taskHash ? { task_hash: taskHash } : {}) }) as unknown as FlowtuneMetadata;

describe('checkTaskVersion', () => {
  const task = { hash: '00000000000000aa', formerHashes: ['00000000000000bb'] };

  it('accepts the task as it is, a version it names as former, and files from before hashes', () => {
    expect(() => checkTaskVersion(madeOn('00000000000000aa'), task, false)).not.toThrow();
    expect(() => checkTaskVersion(madeOn('00000000000000bb'), task, false)).not.toThrow();
    expect(() => checkTaskVersion(madeOn(undefined), task, false)).not.toThrow();
  });

  it('refuses any other version in one sentence unless told to accept it', () => {
    expect(() => checkTaskVersion(madeOn('00000000000000cc'), task, false)).toThrow(
      "checkpoint was made on another version of task 'pick-cube' (task hash 00000000000000cc, the loaded task is 00000000000000aa): its scene or module changed; set accept_task_version=true to use it anyway",
    );
    expect(() => checkTaskVersion(madeOn('00000000000000cc'), task, true)).not.toThrow();
  });

  it("keeps pick-cube's checkpoints from before its wrist camera turned loadable", () => {
    const pickCube = getTask('pick-cube');
    expect(pickCube.formerHashes).toEqual(['522c76830548a05a']);
    expect(() => checkTaskVersion(madeOn('522c76830548a05a'), pickCube, false)).not.toThrow();
  });

  it('refuses former hashes that are not task hashes', () => {
    const spec = { name: 'bad-former', scene: '<mujoco model="bad-former"></mujoco>', control: { kind: 'custom', dim: 1, act: () => {} }, frameSkip: 1, maxEpisodeSteps: 1,
      observation: [{ name: 'x', dim: 1, read: () => {} }], reset: () => {}, step: () => ({ reward: 0, terminated: false }), formerHashes: ['not-a-hash'] };
    expect(() => compileTask(spec, { label: 'bad-former' })).toThrow('bad-former: formerHashes must list task hashes of 16 hex digits');
  });
});
