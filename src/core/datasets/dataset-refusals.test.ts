import { describe, expect, it } from 'vitest';
import { DemosError } from '../errors';
import { importDataset, type DatasetImportRequest } from './import-dataset';
import { HAS_SHARED_DATASETS, sharedDataset } from './fixtures/shared-datasets';
import { npzBytes } from './fixtures/npz-bytes';
import { writeHdf5 } from './fixtures/write-hdf5';

/** The refusal of `request`: a DemosError of one sentence (one line, no trailing period). */
async function refusal(request: DatasetImportRequest): Promise<string> {
  const error = await importDataset(request).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(DemosError);
  const message = (error as Error).message;
  expect(message).not.toMatch(/\n/);
  return message;
}

const hopperRows = (steps: number) => ({
  observations: { data: new Float32Array(steps * 11), shape: [steps, 11], dtype: '<f' },
  rewards: { data: new Float32Array(steps), shape: [steps], dtype: '<f' },
  terminals: { data: new Uint8Array(steps), shape: [steps], dtype: '|b1' },
  timeouts: { data: new Uint8Array(steps), shape: [steps], dtype: '|b1' },
});

describe('dataset refusals, each one sentence naming the file', () => {
  it('an HDF5 file without actions', async () => {
    const bytes = await writeHdf5(hopperRows(4));
    expect(await refusal({ files: [{ name: 'no-actions.hdf5', bytes }], task: 'hopper' }))
      .toBe("no-actions.hdf5 has no 'actions' dataset; a D4RL file holds observations, actions, rewards, terminals, timeouts at its top level (it has observations, rewards, terminals, timeouts)");
  });

  it('an HDF5 file of neither layout', async () => {
    const bytes = await writeHdf5({ 'images/rgb': { data: new Uint8Array(12), shape: [3, 4] } });
    expect(await refusal({ files: [{ name: 'other.h5', bytes }], task: 'hopper' }))
      .toBe('other.h5 is neither a D4RL file (observations, actions, rewards, terminals, timeouts at its top) nor a robomimic one (data/demo_N/actions); its top level holds images');
  });

  it('sizes that do not fit the task, naming both', async () => {
    const bytes = await writeHdf5({ ...hopperRows(4), actions: { data: new Float32Array(4 * 6), shape: [4, 6], dtype: '<f' } });
    expect(await refusal({ files: [{ name: 'wide.hdf5', bytes }], task: 'hopper' }))
      .toBe("wide.hdf5's actions hold 6 values but hopper's actions take 3 (default)");
    expect(await refusal({ files: [{ name: 'wide.hdf5', bytes }], task: 'walker2d' }))
      .toBe("wide.hdf5's observations hold 11 values but walker2d's state observation holds 17");
  });

  it('rows that disagree, and values that are not finite', async () => {
    const short = await writeHdf5({ ...hopperRows(4), actions: { data: new Float32Array(3 * 3), shape: [3, 3], dtype: '<f' } });
    expect(await refusal({ files: [{ name: 'short.hdf5', bytes: short }], task: 'hopper' })).toBe("short.hdf5's 'actions' has 3 rows but its observations have 4");
    const rows = hopperRows(4);
    rows.observations.data[2 * 11 + 5] = Number.NaN;
    const nan = await writeHdf5({ ...rows, actions: { data: new Float32Array(4 * 3), shape: [4, 3], dtype: '<f' } });
    expect(await refusal({ files: [{ name: 'nan.hdf5', bytes: nan }], task: 'hopper' })).toBe("nan.hdf5's observations hold a non-finite value (NaN or ±Infinity) at step 2");
  });

  it('a truncated or corrupt HDF5 file', async () => {
    const bytes = await writeHdf5({ ...hopperRows(40), actions: { data: new Float32Array(40 * 3), shape: [40, 3], dtype: '<f' } });
    expect(await refusal({ files: [{ name: 'cut.hdf5', bytes: bytes.slice(0, bytes.length - 100) }], task: 'hopper' }))
      .toBe(`cut.hdf5 is cut short: it holds ${bytes.length - 100} bytes where its HDF5 superblock says ${bytes.length}, so it was not copied whole`);
    const scrambled = bytes.slice();
    scrambled.fill(0x5a, 8, 200);
    expect(await refusal({ files: [{ name: 'scrambled.hdf5', bytes: scrambled }], task: 'hopper' })).toMatch(/^scrambled\.hdf5 cannot be read as HDF5 \(.+\)$/);
    expect(await refusal({ files: [{ name: 'notes.txt', bytes: new TextEncoder().encode('observations, actions') }], task: 'hopper' }))
      .toBe('notes.txt is neither an HDF5 file (D4RL, robomimic) nor an .npz (ReinFlow/DPPO train.npz): its first bytes are no HDF5 signature or zip header');
  });

  it.skipIf(!HAS_SHARED_DATASETS)('the D4RL fixture cut short', async () => {
    const { bytes } = sharedDataset('d4rl-hopper-tiny.hdf5');
    expect(await refusal({ files: [{ name: 'd4rl-hopper-tiny.hdf5', bytes: bytes.slice(0, 100_000) }], task: 'hopper' }))
      .toBe(`d4rl-hopper-tiny.hdf5 is cut short: it holds 100000 bytes where its HDF5 superblock says ${bytes.length}, so it was not copied whole`);
  });

  it('robomimic options given for a D4RL file', async () => {
    const bytes = await writeHdf5({ ...hopperRows(2), actions: { data: new Float32Array(6), shape: [2, 3], dtype: '<f' } });
    expect(await refusal({ files: [{ name: 'd4rl.hdf5', bytes }], task: 'hopper', obsKeys: ['a'] }))
      .toBe('obs_keys= and filter= pick robomimic demos, but d4rl.hdf5 is a D4RL file; leave them out');
  });
});

describe('train.npz refusals', () => {
  const train = {
    name: 'train.npz',
    bytes: npzBytes({
      states: { data: new Float64Array(2 * 11), shape: [2, 11] },
      actions: { data: new Float64Array(2 * 3), shape: [2, 3] },
      rewards: { data: new Float64Array(2), shape: [2] },
      terminals: { data: new Uint8Array(2), shape: [2] },
      traj_lengths: { data: BigInt64Array.of(2n), shape: [1] },
    }),
  };
  const normalization = (obs: number, action: number) => ({
    name: 'normalization.npz',
    bytes: npzBytes({
      obs_min: { data: new Float64Array(obs), shape: [obs] },
      obs_max: { data: new Float64Array(obs).fill(1), shape: [obs] },
      action_min: { data: new Float64Array(action), shape: [action] },
      action_max: { data: new Float64Array(action).fill(1), shape: [action] },
    }),
  });

  it('a normalization.npz of other sizes', async () => {
    expect(await refusal({ files: [train, normalization(17, 3)], task: 'hopper' }))
      .toBe("normalization.npz's obs_min holds 17 values but train.npz's states have 11: it is the normalization of another dataset");
    expect(await refusal({ files: [train, normalization(11, 6)], task: 'hopper' }))
      .toBe("normalization.npz's action_min holds 6 values but train.npz's actions have 3: it is the normalization of another dataset");
  });

  it('a train.npz without its normalization.npz, or a normalization.npz alone', async () => {
    expect(await refusal({ files: [train], task: 'hopper' }))
      .toBe('train.npz holds states and actions scaled to [-1, 1]: give the normalization.npz written beside it (normalization=FILE.npz, or drop both files together)');
    expect(await refusal({ files: [normalization(11, 3)], task: 'hopper' }))
      .toBe('normalization.npz is a normalization.npz; give the train.npz it belongs to as well');
  });

  it('traj_lengths that do not add up, and a truncated zip', async () => {
    const uneven = {
      name: 'uneven.npz',
      bytes: npzBytes({
        states: { data: new Float64Array(3 * 11), shape: [3, 11] },
        actions: { data: new Float64Array(3 * 3), shape: [3, 3] },
        traj_lengths: { data: BigInt64Array.of(2n), shape: [1] },
      }),
    };
    expect(await refusal({ files: [uneven, normalization(11, 3)], task: 'hopper' })).toBe("uneven.npz's traj_lengths add up to 2 steps but it holds 3 rows");
    expect(await refusal({ files: [{ name: 'cut.npz', bytes: train.bytes.slice(0, train.bytes.length - 30) }, normalization(11, 3)], task: 'hopper' })).toMatch(/^cut\.npz: /);
  });
});
