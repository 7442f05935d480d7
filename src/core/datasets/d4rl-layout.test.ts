import { describe, expect, it } from 'vitest';
import { writeDemoFile, readDemoFile } from '../envs/demo-format';
import { importDataset } from './import-dataset';
import { HAS_SHARED_DATASETS, sharedDataset } from './fixtures/shared-datasets';
import { writeHdf5, type Hdf5Entry } from './fixtures/write-hdf5';

const sum = (values: Float32Array) => values.reduce((total, value) => total + value, 0);

/**
 * The fixture's numbers as h5py reads them (Debian's python3-h5py 3.7, numpy 1.24):
 *   /usr/bin/python3 -c "import h5py, numpy as np; h = h5py.File('../shared/fixtures/datasets/d4rl-hopper-tiny.hdf5');
 *     print(np.nonzero(h['terminals'][:])[0], np.nonzero(h['timeouts'][:])[0]); print(h['observations'][0].tolist(),
 *     h['observations'][1448].tolist(), h['actions'][37].tolist(), float(h['rewards'][36]));
 *     print(h['observations'][:].astype(np.float64).sum(), h['actions'][:].astype(np.float64).sum(), h['rewards'][:].astype(np.float64).sum())"
 * printed terminals at rows [36 1448], timeouts at [1036], and the values below.
 */
const PINNED = {
  obs0: [-0.2787485718727112, 0.5575568675994873, 0.3494064211845398, 0.36965134739875793, -0.5993645191192627, -0.18139339983463287, -0.2851301431655884, 0.06471331417560577, -0.8050336837768555, 0.71761554479599, 0.16370433568954468],
  obs1448: [0.11252421885728836, 0.28605690598487854, 0.19627727568149567, 0.5452555418014526, -0.97376948595047, 0.49604862928390503, 1.8033928871154785, 2.0849363803863525, 0.7592052817344666, 0.9246703386306763, -0.18813246488571167],
  action37: [-0.0036458296235650778, 0.1177370548248291, -0.791215717792511],
  reward36: 2.331707000732422,
  obsSum: 9349.702083646089,
  actionSum: 15.39382305622712,
  rewardSum: 2868.218787550926,
};

describe.skipIf(!HAS_SHARED_DATASETS)('D4RL fixture (../shared/fixtures/datasets/d4rl-hopper-tiny.hdf5)', () => {
  it('becomes hopper demos of 37 (a fall), 1000 (the time limit) and 412 (a fall) steps with the source values', async () => {
    const imported = await importDataset({ files: [sharedDataset('d4rl-hopper-tiny.hdf5')], task: 'hopper' });
    const { demos, metadata } = imported;
    expect([...demos.episodeStarts]).toEqual([0, 37, 1037, 1449]);
    expect([...demos.terminated!]).toEqual([1, 0, 1]);
    expect([...demos.success]).toEqual([0, 0, 0]);
    expect([...demos.seeds]).toEqual([-1, -1, -1]);
    expect(metadata).toMatchObject({ task: 'hopper', obs_mode: 'state', obs_dim: 11, action_dim: 3, control_mode: 'default', episodes: 3, steps: 1449, max_episode_steps: 1000 });
    expect([...demos.obs.subarray(0, 11)]).toEqual(PINNED.obs0);
    expect([...demos.obs.subarray(1448 * 11)]).toEqual(PINNED.obs1448);
    expect([...demos.actions.subarray(37 * 3, 38 * 3)]).toEqual(PINNED.action37);
    expect(demos.rewards[36]).toBe(PINNED.reward36);
    expect(sum(demos.obs)).toBeCloseTo(PINNED.obsSum, 6);
    expect(sum(demos.actions)).toBeCloseTo(PINNED.actionSum, 8);
    expect(sum(demos.rewards)).toBeCloseTo(PINNED.rewardSum, 7);
    expect(imported.summary).toBe('d4rl-hopper-tiny.hdf5 (D4RL) for hopper: 3 episodes, 1449 steps; 2 terminated, 1 truncated');
    // Through the .demos file and back, nothing changes.
    const back = readDemoFile(writeDemoFile(demos, metadata)).demos;
    for (const key of ['obs', 'actions', 'rewards', 'episodeStarts', 'success', 'seeds', 'terminated'] as const) expect([...back[key]!]).toEqual([...demos[key]!]);
  });
});

/** A 7-step D4RL file of hopper's sizes (11 observation values, 3 action values); its flags are the test's. */
async function tinyD4rl(flags: { terminals?: number[]; timeouts?: number[] }): Promise<Uint8Array> {
  const steps = 7;
  const entries: Record<string, Hdf5Entry> = {
    observations: { data: Float32Array.from({ length: steps * 11 }, (_, index) => index / 10), shape: [steps, 11], dtype: '<f' },
    actions: { data: Float32Array.from({ length: steps * 3 }, (_, index) => -index / 100), shape: [steps, 3], dtype: '<f' },
    rewards: { data: Float64Array.from({ length: steps }, (_, index) => index), shape: [steps], dtype: '<d' },
  };
  if (flags.terminals) entries.terminals = { data: Uint8Array.from(flags.terminals), shape: [steps], dtype: '|b1' };
  if (flags.timeouts) entries.timeouts = { data: Uint8Array.from(flags.timeouts), shape: [steps], dtype: '|b1' };
  return writeHdf5(entries);
}

describe('D4RL episodes', () => {
  it('keeps a trailing episode that has neither a terminal nor a timeout, as truncated, and says so', async () => {
    const bytes = await tinyD4rl({ terminals: [0, 1, 0, 0, 0, 0, 0], timeouts: [0, 0, 0, 1, 0, 0, 0] });
    const { demos, summary } = await importDataset({ files: [{ name: 'cut.hdf5', bytes }], task: 'hopper' });
    expect([...demos.episodeStarts]).toEqual([0, 2, 4, 7]);
    expect([...demos.terminated!]).toEqual([1, 0, 0]);
    expect([...demos.rewards]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(summary).toBe('cut.hdf5 (D4RL) for hopper: 3 episodes, 7 steps; 1 terminated, 2 truncated; its last 3 steps end with neither a terminal nor a timeout; kept as a truncated episode');
  });

  it('counts a step both terminal and timed out as a fall, and reads a file without timeouts', async () => {
    const both = await importDataset({ files: [{ name: 'both.hdf5', bytes: await tinyD4rl({ terminals: [0, 0, 0, 0, 0, 0, 1], timeouts: [0, 0, 1, 0, 0, 0, 1] }) }], task: 'hopper' });
    expect([...both.demos.episodeStarts]).toEqual([0, 3, 7]);
    expect([...both.demos.terminated!]).toEqual([0, 1]);
    const noTimeouts = await importDataset({ files: [{ name: 'old.hdf5', bytes: await tinyD4rl({ terminals: [0, 0, 0, 0, 0, 0, 1] }) }], task: 'hopper' });
    expect([...noTimeouts.demos.terminated!]).toEqual([1]);
    expect(noTimeouts.summary).toMatch(/it has no 'timeouts', so none ends that way$/);
  });
});
