import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readDemoFile } from '../core/envs/demo-format';
import { HAS_SHARED_DATASETS, SHARED_DATASETS } from '../core/datasets/fixtures/shared-datasets';
import { writeHdf5 } from '../core/datasets/fixtures/write-hdf5';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-demos-import-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run demos` in a real process. */
function demos(...args: string[]) {
  const result = spawnSync(tsx, [path.join(here, 'demos.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, FLOWTUNE_DEBUG: '' } });
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

describe('npm run demos -- import=FILE', () => {
  it('converts a D4RL file, saying what it read, and refuses keys that record demos', async () => {
    const steps = 5;
    const file = path.join(dir, 'tiny.hdf5');
    writeFileSync(file, await writeHdf5({
      observations: { data: new Float32Array(steps * 11).fill(0.5), shape: [steps, 11], dtype: '<f' },
      actions: { data: new Float32Array(steps * 3).fill(-0.25), shape: [steps, 3], dtype: '<f' },
      rewards: { data: new Float32Array(steps).fill(1), shape: [steps], dtype: '<f' },
      terminals: { data: Uint8Array.of(0, 1, 0, 0, 0), shape: [steps], dtype: '|b1' },
      timeouts: { data: Uint8Array.of(0, 0, 0, 0, 1), shape: [steps], dtype: '|b1' },
    }));
    const out = path.join(dir, 'tiny.demos');
    const run = demos(`import=${file}`, 'task=hopper', `out=${out}`);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('tiny.hdf5 (D4RL) for hopper: 2 episodes, 5 steps; 1 terminated, 1 truncated');
    expect(JSON.parse(run.stdout)).toMatchObject({ task: 'hopper', layout: 'd4rl', episodes: 2, steps: 5, terminated: 1, truncated: 1, out });
    const { demos: written, metadata } = readDemoFile(new Uint8Array(readFileSync(out)));
    expect([...written.episodeStarts]).toEqual([0, 2, 5]);
    expect([...written.terminated!]).toEqual([1, 0]);
    expect(metadata).toMatchObject({ task: 'hopper', control_mode: 'default', obs_dim: 11, action_dim: 3 });

    const mixed = demos(`import=${file}`, 'task=hopper', `out=${out}`, 'episodes=3');
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toBe('error: episodes records demos; with import= the dataset is converted as it is');
    const stray = demos('task=hopper', `out=${out}`, 'obs_keys=a,b');
    expect(stray.status).toBe(2);
    expect(stray.stderr).toBe('error: obs_keys applies with import=FILE only');
    const scaled = demos('task=hopper', `out=${out}`, 'std_scale=0.5');
    expect(scaled.status).toBe(2);
    expect(scaled.stderr).toBe("error: std_scale applies with policy=FILE.flowtune only; the scripted expert's demos are sized by episodes= and noised by noise=");
    const missing = demos(`import=${path.join(dir, 'none.hdf5')}`, 'task=hopper', `out=${out}`);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`error: dataset '${path.join(dir, 'none.hdf5')}' does not exist`);
  }, 60_000);

  it.skipIf(!HAS_SHARED_DATASETS)('finds a train.npz\'s normalization.npz beside it, and refuses sizes that do not fit in one line', () => {
    copyFileSync(path.join(SHARED_DATASETS, 'reinflow-hopper-train.npz'), path.join(dir, 'train.npz'));
    copyFileSync(path.join(SHARED_DATASETS, 'reinflow-hopper-normalization.npz'), path.join(dir, 'normalization.npz'));
    const out = path.join(dir, 'reinflow.demos');
    const run = demos(`import=${path.join(dir, 'train.npz')}`, 'task=hopper', `out=${out}`);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("train.npz (ReinFlow/DPPO's train.npz with normalization.npz) for hopper: 3 episodes, 1449 steps; 2 terminated, 1 truncated");
    const wrong = demos(`import=${path.join(SHARED_DATASETS, 'd4rl-hopper-tiny.hdf5')}`, 'task=walker2d', `out=${out}`);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe("error: d4rl-hopper-tiny.hdf5's observations hold 11 values but walker2d's state observation holds 17");
  }, 60_000);
});
