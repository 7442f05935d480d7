import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDataset } from './import-dataset';
import { HAS_SHARED_DATASETS, sharedDataset } from './fixtures/shared-datasets';
import { registerRobomimicLiftTask, ROBOMIMIC_LIFT_TASK } from './fixtures/robomimic-task';
import { writeHdf5, type Hdf5Entry } from './fixtures/write-hdf5';

let unregister: () => void;
beforeAll(() => {
  unregister = registerRobomimicLiftTask();
});
afterAll(() => unregister());

const OBS_KEYS = ['robot0_eef_pos', 'robot0_eef_quat', 'robot0_gripper_qpos', 'object'];
const f32 = (values: readonly number[]) => values.map((value) => Math.fround(value));
const sum = (values: Float32Array) => values.reduce((total, value) => total + value, 0);

/**
 * The fixture's numbers as h5py reads them, obs keys concatenated in OBS_KEYS' order:
 *   /usr/bin/python3 -c "import h5py, numpy as np; h = h5py.File('../shared/fixtures/datasets/robomimic-lift-lowdim-tiny.hdf5');
 *     keys = ['robot0_eef_pos', 'robot0_eef_quat', 'robot0_gripper_qpos', 'object']
 *     for d in ['demo_0', 'demo_1']: g = h['data'][d]; o = np.concatenate([g['obs'][k][:] for k in keys], axis=1);
 *       print(d, len(g['actions']), int(g['dones'][-1]), o[0].tolist(), g['actions'][-1].tolist(), o.sum(), g['actions'][:].sum(), g['rewards'][:].sum())
 *     print(h['mask/train'][:], h['mask/valid'][:])"
 * printed the values below (float64 in the file, float32 in .demos); mask/train is [b'demo_0'], mask/valid [b'demo_1'].
 */
const DEMO = [
  {
    steps: 48,
    obs0: [0.8614772823408935, -2.339038545696035, -0.10808484749781652, -0.8298042046860428, -0.14992497838865995, -0.4829234532789152, 1.3945832546251586, 1.3717405045373197, 0.19642938355453382, 1.1429969837371383, 0.3558933512948002, -0.7574733871948821, 1.6810010363278112, 1.426071947465394, -0.43095323863638757, -1.3317514904453995, 0.20737788599269005, 0.2512137153485082, -0.9999034256860967],
    lastAction: [-0.9566651113074125, -0.2508106389726596, 0.15115569976382284, -0.12326243518309339, -0.3073665797748488, -0.2592129713659996, 0.05736091485473924],
    obsSum: -44.23474154158465, actionSum: -9.958369017005122, rewardSum: 1,
  },
  {
    steps: 61,
    obs0: [-0.6005809179963257, -0.9390530066266954, -1.5198555688863913, -0.030073114325037453, -0.23178614292278255, -0.04813679728182818, 1.283064973960876, 0.6779957392897847, -1.5188811622359013, 0.301697639428891, 0.5091976426981247, 0.7509012533099391, -0.958477109509559, -0.2953848969625744, 0.3994344592224747, -0.2413578372029418, -0.33086490254082374, 0.6990493390882039, 0.7554682485929141],
    lastAction: [-0.46248683579656674, 0.6026456952783182, -0.03458792233059479, -0.20479021500653127, -0.5628794533640971, -0.035774535938728716, -0.03681534168312677],
    obsSum: -44.19499558163655, actionSum: 6.395522903287662, rewardSum: 1,
  },
];

describe.skipIf(!HAS_SHARED_DATASETS)('robomimic fixture (../shared/fixtures/datasets/robomimic-lift-lowdim-tiny.hdf5)', () => {
  it('becomes demos of its two demos, the obs keys concatenated in the order given, each ended by its success', async () => {
    const imported = await importDataset({ files: [sharedDataset('robomimic-lift-lowdim-tiny.hdf5')], task: ROBOMIMIC_LIFT_TASK, obsKeys: OBS_KEYS });
    const { demos, metadata } = imported;
    expect([...demos.episodeStarts]).toEqual([0, 48, 109]);
    expect([...demos.terminated!]).toEqual([1, 1]);
    expect([...demos.success]).toEqual([1, 1]);
    expect(metadata).toMatchObject({ obs_dim: 19, action_dim: 7, control_mode: 'osc_pose', episodes: 2, steps: 109, success_rate: 1 });
    DEMO.forEach((expected, index) => {
      const first = demos.episodeStarts[index];
      const last = demos.episodeStarts[index + 1] - 1;
      expect(last + 1 - first).toBe(expected.steps);
      expect([...demos.obs.subarray(first * 19, (first + 1) * 19)]).toEqual(f32(expected.obs0));
      expect([...demos.actions.subarray(last * 7, (last + 1) * 7)]).toEqual(f32(expected.lastAction));
      expect(sum(demos.obs.subarray(first * 19, (last + 1) * 19))).toBeCloseTo(expected.obsSum, 4);
      expect(sum(demos.actions.subarray(first * 7, (last + 1) * 7))).toBeCloseTo(expected.actionSum, 5);
      expect(sum(demos.rewards.subarray(first, last + 1))).toBe(expected.rewardSum);
    });
    expect(imported.summary).toBe(`robomimic-lift-lowdim-tiny.hdf5 (robomimic) for ${ROBOMIMIC_LIFT_TASK}: 2 episodes, 109 steps; 2 terminated, 0 truncated; obs_keys=${OBS_KEYS.join(',')}`);
  });

  it('keeps only the demos of a filter under mask/', async () => {
    for (const [filter, expected] of [['train', DEMO[0]], ['valid', DEMO[1]]] as const) {
      const { demos, summary } = await importDataset({ files: [sharedDataset('robomimic-lift-lowdim-tiny.hdf5')], task: ROBOMIMIC_LIFT_TASK, obsKeys: OBS_KEYS, filter });
      expect([...demos.episodeStarts]).toEqual([0, expected.steps]);
      expect([...demos.obs.subarray(0, 19)]).toEqual(f32(expected.obs0));
      expect(summary).toMatch(new RegExp(`1 episode, ${expected.steps} steps; 1 terminated, 0 truncated; .*; the one demo of mask/${filter}$`));
    }
  });

  it('without obs_keys, names the keys there are in one sentence', async () => {
    await expect(importDataset({ files: [sharedDataset('robomimic-lift-lowdim-tiny.hdf5')], task: ROBOMIMIC_LIFT_TASK })).rejects.toThrow(
      "robomimic-lift-lowdim-tiny.hdf5 is a robomimic file: name the keys that make the task's observation, in its order, with obs_keys=KEY,KEY (its demos hold object (10), robot0_eef_pos (3), robot0_eef_quat (4), robot0_gripper_qpos (2))",
    );
  });

  it('refuses an unknown filter or obs key by naming those there are', async () => {
    await expect(importDataset({ files: [sharedDataset('robomimic-lift-lowdim-tiny.hdf5')], task: ROBOMIMIC_LIFT_TASK, obsKeys: OBS_KEYS, filter: 'test' }))
      .rejects.toThrow("robomimic-lift-lowdim-tiny.hdf5 has no filter 'test' under mask/; its filters are train, valid");
    await expect(importDataset({ files: [sharedDataset('robomimic-lift-lowdim-tiny.hdf5')], task: ROBOMIMIC_LIFT_TASK, obsKeys: ['object', 'cube_pos'] }))
      .rejects.toThrow("robomimic-lift-lowdim-tiny.hdf5's demo_0/obs has no 'cube_pos'; it holds object (10), robot0_eef_pos (3), robot0_eef_quat (4), robot0_gripper_qpos (2)");
  });
});

/** A robomimic file whose demo N has N + 1 steps, each step's values N. */
function demoEntries(numbers: readonly number[]): Record<string, Hdf5Entry> {
  const entries: Record<string, Hdf5Entry> = {};
  for (const number of numbers) {
    const steps = number + 1;
    const base = `data/demo_${number}`;
    const fill = (count: number) => Float64Array.from({ length: count }, () => number);
    entries[`${base}/actions`] = { data: fill(steps * 7), shape: [steps, 7], dtype: '<d' };
    entries[`${base}/rewards`] = { data: fill(steps), shape: [steps], dtype: '<d' };
    entries[`${base}/dones`] = { data: BigInt64Array.from({ length: steps }, (_, step) => (step === steps - 1 && number % 2 === 0 ? 1n : 0n)), shape: [steps], dtype: '<q' };
    entries[`${base}/obs/a`] = { data: fill(steps * 12), shape: [steps, 3, 4], dtype: '<d' };
    entries[`${base}/obs/b`] = { data: fill(steps * 7), shape: [steps, 7], dtype: '<d' };
  }
  entries['mask/odd'] = { data: numbers.filter((number) => number % 2 === 1).map((number) => `demo_${number}`), dtype: 'S7' };
  return entries;
}

describe('robomimic demos', () => {
  it('come in the order of their number (demo_2 before demo_10), trailing axes flattened; a demo not ending done is truncated', async () => {
    const bytes = await writeHdf5(demoEntries([10, 2, 1]));
    const { demos } = await importDataset({ files: [{ name: 'order.hdf5', bytes }], task: ROBOMIMIC_LIFT_TASK, obsKeys: ['a', 'b'] });
    expect([...demos.episodeStarts]).toEqual([0, 2, 5, 16]);
    expect([demos.rewards[0], demos.rewards[2], demos.rewards[5]]).toEqual([1, 2, 10]);
    expect([...demos.terminated!]).toEqual([0, 1, 1]);
    const odd = await importDataset({ files: [{ name: 'order.hdf5', bytes }], task: ROBOMIMIC_LIFT_TASK, obsKeys: ['a', 'b'], filter: 'odd' });
    expect([...odd.demos.episodeStarts]).toEqual([0, 2]);
  });
});
