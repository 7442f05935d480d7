import { describe, expect, it } from 'vitest';
import { importDataset } from './import-dataset';
import { HAS_SHARED_DATASETS, sharedDataset } from './fixtures/shared-datasets';
import { npzBytes } from './fixtures/npz-bytes';

/**
 * The fixture unscaled by numpy in float64, as ReinFlow's and DPPO's env wrappers do:
 *   /usr/bin/python3 -c "import numpy as np; z = np.load('../shared/fixtures/datasets/reinflow-hopper-train.npz');
 *     n = np.load('../shared/fixtures/datasets/reinflow-hopper-normalization.npz');
 *     o = (z['states']/2 + 0.5)*(n['obs_max'] - n['obs_min'] + 1e-6) + n['obs_min'];
 *     a = (z['actions'] + 1)/2*(n['action_max'] - n['action_min']) + n['action_min'];
 *     print(z['traj_lengths'], np.nonzero(z['terminals'])[0]); print(o[0].tolist(), o[1448].tolist(), a[37].tolist());
 *     print(o.sum(), a.sum(), z['rewards'].sum())"
 * printed traj_lengths [37 1000 412], terminals at rows [36 1448], and the values below.
 */
const PINNED = {
  obs0: [-0.27874857253489926, 0.5575568851924425, 0.34940643046195885, 0.3696513569159301, -0.5993645048521853, -0.18139340076710608, -0.2851301306288998, 0.06471331175513481, -0.8050337013287452, 0.7176155562148677, 0.16370433646751503],
  obs1448: [0.11252422069187562, 0.2860569178552118, 0.19627727573473075, 0.5452555572996318, -0.9737694682723094, 0.4960486383536895, 1.8033929242898825, 2.0849364739866436, 0.7592052663938729, 0.9246703371776605, -0.18813246275861295],
  action37: [-0.003646327816478334, 0.1177364972676489, -0.7912157944349414],
  obsSum: 9349.702083218663,
  actionSum: 15.391642082670327,
  rewardSum: 2868.218786198243,
};

const sum = (values: Float32Array) => values.reduce((total, value) => total + value, 0);

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let index = 0; index < expected.length; index++) worst = Math.max(worst, Math.abs(actual[index] - expected[index]));
  expect(worst).toBeLessThan(tolerance);
}

describe.skipIf(!HAS_SHARED_DATASETS)('ReinFlow/DPPO train.npz fixture (../shared/fixtures/datasets/reinflow-hopper-*.npz)', () => {
  it('unscaled with its normalization.npz, becomes hopper demos of its three trajectories with numpy\'s values', async () => {
    // The two files in either order: each is told by the arrays it holds.
    const imported = await importDataset({ files: [sharedDataset('reinflow-hopper-normalization.npz'), sharedDataset('reinflow-hopper-train.npz')], task: 'hopper' });
    const { demos, metadata } = imported;
    expect(imported.layout).toBe('reinflow');
    expect([...demos.episodeStarts]).toEqual([0, 37, 1037, 1449]);
    expect([...demos.terminated!]).toEqual([1, 0, 1]);
    expect(metadata).toMatchObject({ task: 'hopper', obs_dim: 11, action_dim: 3, episodes: 3, steps: 1449 });
    // float32 storage of float64 arithmetic: a few float32 ulps of values below 5.
    expectClose(demos.obs.subarray(0, 11), PINNED.obs0, 1e-6);
    expectClose(demos.obs.subarray(1448 * 11), PINNED.obs1448, 1e-6);
    expectClose(demos.actions.subarray(37 * 3, 38 * 3), PINNED.action37, 1e-6);
    expect(sum(demos.obs)).toBeCloseTo(PINNED.obsSum, 3);
    expect(sum(demos.actions)).toBeCloseTo(PINNED.actionSum, 4);
    expect(sum(demos.rewards)).toBeCloseTo(PINNED.rewardSum, 3);
    expect(imported.summary).toBe("reinflow-hopper-train.npz (ReinFlow/DPPO's train.npz with reinflow-hopper-normalization.npz) for hopper: 3 episodes, 1449 steps; 2 terminated, 1 truncated");
  });

  it('gives the D4RL file it was made from, to within the float32 rounding of its scaling', async () => {
    const fromNpz = (await importDataset({ files: [sharedDataset('reinflow-hopper-train.npz'), sharedDataset('reinflow-hopper-normalization.npz')], task: 'hopper' })).demos;
    const fromHdf5 = (await importDataset({ files: [sharedDataset('d4rl-hopper-tiny.hdf5')], task: 'hopper' })).demos;
    expect([...fromNpz.episodeStarts]).toEqual([...fromHdf5.episodeStarts]);
    expect([...fromNpz.terminated!]).toEqual([...fromHdf5.terminated!]);
    expectClose(fromNpz.obs, fromHdf5.obs, 2e-6);
    expectClose(fromNpz.actions, fromHdf5.actions, 2e-6);
    expectClose(fromNpz.rewards, fromHdf5.rewards, 1e-6);
  });
});

describe('train.npz episodes', () => {
  const scaled = (rows: number, width: number) => Float64Array.from({ length: rows * width }, (_, index) => ((index % 5) - 2) / 2);
  const normalization = {
    name: 'normalization.npz',
    bytes: npzBytes({
      obs_min: { data: Float64Array.from({ length: 11 }, () => -2), shape: [11] },
      obs_max: { data: Float64Array.from({ length: 11 }, () => 2), shape: [11] },
      action_min: { data: Float64Array.of(-1, 0, -0.5), shape: [3] },
      action_max: { data: Float64Array.of(1, 1, 0.5), shape: [3] },
    }),
  };

  it('undoes the scaling feature by feature and cuts rows by traj_lengths', async () => {
    const train = {
      name: 'train.npz',
      bytes: npzBytes({
        states: { data: scaled(5, 11), shape: [5, 11] },
        actions: { data: scaled(5, 3), shape: [5, 3] },
        rewards: { data: Float64Array.of(1, 2, 3, 4, 5), shape: [5] },
        terminals: { data: Uint8Array.of(0, 0, 0, 0, 1), shape: [5] },
        traj_lengths: { data: BigInt64Array.of(3n, 2n), shape: [2] },
      }),
    };
    const { demos } = await importDataset({ files: [train, normalization], task: 'hopper' });
    expect([...demos.episodeStarts]).toEqual([0, 3, 5]);
    expect([...demos.terminated!]).toEqual([0, 1]);
    // o = (o_n/2 + 0.5)·(max − min + 1e-6) + min with min −2, max 2: o_n = −1 → −2, o_n = 1 → 2 + 1e-6.
    expect(demos.obs[0]).toBe(-2);
    expect(demos.obs[4]).toBe(Math.fround(2 + 1e-6));
    // a = (a_n + 1)/2·(max − min) + min, per feature: a_n = −1, −0.5, 0 on features 0, 1, 2.
    expect([...demos.actions.subarray(0, 3)]).toEqual([-1, 0.25, 0]);
  });
});
