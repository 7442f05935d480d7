import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../core/config';
import { observationSpec } from '../../core/envs/observation';
import { configActionDim } from '../../core/envs/task-controls';
import { loadTaskModule, type TaskDefinition } from '../../core/envs/task-definition';
import { registerTask, unregisterTask } from '../../core/envs/task-registry';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { taskEntry } from '../../../workers/trainer/task-catalog';
import { taskStandIn } from './task-stand-in';

const EXAMPLES = path.resolve(import.meta.dirname, '../../../examples/tasks');

/** An example task folder loaded as the trainer worker loads one, with MuJoCo. */
async function loadExample(name: string): Promise<TaskDefinition> {
  const folder = path.join(EXAMPLES, name);
  const files = new Map(readdirSync(folder).map((file) => [file, new Uint8Array(readFileSync(path.join(folder, file)))]));
  const entry = path.join(folder, 'task.js');
  return loadTaskModule({ url: pathToFileURL(entry).href, label: `${name}/task.js`, files, moduleText: readFileSync(entry, 'utf8') }, (url) => import(url), await loadMujocoNode());
}

let registered: string | undefined;
afterEach(() => {
  if (registered) unregisterTask(registered);
  registered = undefined;
});

describe('the page\'s stand-in of an added task', () => {
  for (const name of ['slide-to-target', 'pendulum-swingup']) {
    it(`${name}: has the observation, action sizes and rules the real task has, from its entry alone`, async () => {
      const task = await loadExample(name);
      // The entry crosses from the worker to the page by structured clone.
      const standIn = taskStandIn(structuredClone(taskEntry(task)))!;
      expect(observationSpec(standIn, 'state')).toEqual(observationSpec(task, 'state'));
      expect([...standIn.controls.values()].map(({ name: control, dim }) => [control, dim])).toEqual([...task.controls.values()].map(({ name: control, dim }) => [control, dim]));
      expect([standIn.maxEpisodeSteps, standIn.hasSuccess, standIn.rewardModes, standIn.expert?.control]).toEqual([task.maxEpisodeSteps, task.hasSuccess, task.rewardModes, task.expert?.control]);

      registerTask(standIn);
      registered = name;
      const config = validateConfig({ ...defaultConfig(), task: name });
      expect(configActionDim(config)).toBe(task.controls.get(task.defaultControl)!.dim);
      expect(() => standIn.step({} as never)).toThrow(/runs in the trainer's workers/);
    });
  }

  it('is not made for a built-in (the page registers those from their modules)', () => {
    expect(taskStandIn({ name: 'x', doc: '', builtIn: true, obsTypes: ['state'], hasSuccess: true, hasExpert: false })).toBeUndefined();
  });
});
