import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import { parseMetricsJsonl } from '../core/metrics/serialize';
import { canMountSmallDisk, smallDisk } from './fixtures/small-disk';
import { decodePolicyCheckpoint } from '../core/checkpoint/fixtures/decode-bytes';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-train-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CKPT = 'public/checkpoints/reach-bc.flowtune';
/** Four tiny reach iterations, a checkpoint every two, in the training thread. */
const SETTINGS = [
  'task=reach', 'iterations=4', 'checkpoint_every=2', 'num_envs=4', 'env.workers=1', 'env.steps_per_iteration=4',
  'env.max_episode_steps=10', 'ppo.minibatch_size=8', 'ppo.critic_warmup_steps=0', 'eval_episodes=2', 'eval.every=2', 'seed=3',
];

function train(args: string[]) {
  return spawnSync(tsx, [path.join(here, 'train.ts'), ...SETTINGS, ...args], { cwd: repoRoot, encoding: 'utf8' });
}

/** metrics.jsonl without timing columns, which differ between any two runs. */
function metrics(out: string): Record<string, number>[] {
  const { records } = parseMetricsJsonl(readFileSync(path.join(out, 'metrics.jsonl'), 'utf8'));
  return records.map((record) => Object.fromEntries(Object.entries(record).filter(([key]) => key !== 'progress/wall_s' && !key.startsWith('perf/'))) as Record<string, number>);
}

describe('npm run train into an out= folder that holds a run', () => {
  const first = path.join(dir, 'first');

  it('refuses it with exit 2 and one sentence, and leaves the run as it was', () => {
    expect(train([`ckpt=${CKPT}`, `out=${first}`]).status).toBe(0);
    const before = readFileSync(path.join(first, 'metrics.jsonl'), 'utf8');
    const again = train([`ckpt=${CKPT}`, `out=${first}`, 'seed=4']);
    expect(again.status).toBe(2);
    expect(again.stderr.trim()).toBe(`error: out=${first} already holds a run (config.json, metrics.jsonl, metrics.csv, backend.txt, 2 checkpoints); add resume=true to continue it from checkpoints/final.flowtune, overwrite=true to replace it, or choose another out=`);
    expect(readFileSync(path.join(first, 'metrics.jsonl'), 'utf8')).toBe(before);
    expect(JSON.parse(readFileSync(path.join(first, 'config.json'), 'utf8')).seed).toBe(3);
    expect(readFileSync(path.join(first, 'backend.txt'), 'utf8')).toBe('wasm\n');
  }, 120_000);

  it('resume=true continues a killed run from its newest checkpoint exactly, dropping a torn metrics line', () => {
    // A copy of the finished run as a kill after the iteration-2 checkpoint would leave it: no final
    // checkpoint, and metrics.jsonl with iteration 3 and a torn fourth line.
    const killed = path.join(dir, 'killed');
    cpSync(first, killed, { recursive: true });
    rmSync(path.join(killed, 'checkpoints', 'final.flowtune'));
    const lines = readFileSync(path.join(killed, 'metrics.jsonl'), 'utf8').split('\n');
    writeFileSync(path.join(killed, 'metrics.jsonl'), `${lines.slice(0, 3).join('\n')}\n${lines[3].slice(0, 20)}`);
    const resumed = train([`out=${killed}`, 'resume=true']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('resuming at iteration 2');
    expect(resumed.stderr).not.toContain('not exact');
    expect(resumed.stderr).toContain('backend: wasm (auto: the backend the run was saved on, so it continues bit-exact)');
    expect(metrics(killed)).toEqual(metrics(first));
    expect(metrics(killed)).toHaveLength(4);
  }, 120_000);

  it('overwrite=true replaces the run; resume=true with nothing to resume, or out= a file, exit 2', () => {
    const replaced = path.join(dir, 'replaced');
    cpSync(first, replaced, { recursive: true });
    writeFileSync(path.join(replaced, 'notes.txt'), 'mine');
    const result = train([`ckpt=${CKPT}`, `out=${replaced}`, 'overwrite=true', 'iterations=2']);
    expect(result.status, result.stderr).toBe(0);
    expect(metrics(replaced)).toHaveLength(2);
    expect(readdirSync(path.join(replaced, 'checkpoints'))).toEqual(['final.flowtune']);
    // Only the run's own files go: anything else in the folder stays.
    expect(readFileSync(path.join(replaced, 'notes.txt'), 'utf8')).toBe('mine');
    const nothing = train([`out=${path.join(dir, 'empty')}`, 'resume=true']);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr.trim()).toBe(`error: resume=true needs a run to continue, but out=${path.join(dir, 'empty')} holds none`);
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    const onFile = train([`ckpt=${CKPT}`, `out=${file}`]);
    expect(onFile.status).toBe(2);
    expect(onFile.stderr.trim()).toBe(`error: out=${file} is a file, not a folder; choose a folder for the run`);
    const both = train([`ckpt=${CKPT}`, `out=${first}`, 'resume=true']);
    expect(both.status).toBe(2);
    expect(both.stderr.trim()).toBe(`error: resume=true continues ${path.join(first, 'checkpoints', 'final.flowtune')}; drop ckpt=${CKPT}`);
  }, 120_000);

  it('resume=true without task= trains the run\'s own task; a run of a task that is not built in asks for its folder', () => {
    const own = path.join(dir, 'own-task');
    cpSync(first, own, { recursive: true });
    const withoutTask = SETTINGS.filter((arg) => !arg.startsWith('task='));
    const resumed = spawnSync(tsx, [path.join(here, 'train.ts'), ...withoutTask, `out=${own}`, 'resume=true', 'iterations=5'], { cwd: repoRoot, encoding: 'utf8' });
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('resuming at iteration 4');
    expect(metrics(own).map((record) => record['progress/iteration'])).toEqual([1, 2, 3, 4, 5]);
    expect(JSON.parse(readFileSync(path.join(own, 'config.json'), 'utf8')).task).toBe('reach');
    const foreign = path.join(dir, 'foreign-task');
    cpSync(first, foreign, { recursive: true });
    const config = JSON.parse(readFileSync(path.join(foreign, 'config.json'), 'utf8'));
    writeFileSync(path.join(foreign, 'config.json'), JSON.stringify({ ...config, task: 'my-arm-reach' }));
    const refused = spawnSync(tsx, [path.join(here, 'train.ts'), `out=${foreign}`, 'resume=true'], { cwd: repoRoot, encoding: 'utf8' });
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe(`error: the run in out=${foreign} trained task 'my-arm-reach', which is not a built-in one; add task=./path/ to its folder`);
    const noOut = spawnSync(tsx, [path.join(here, 'train.ts'), 'resume=true'], { cwd: repoRoot, encoding: 'utf8' });
    expect(noOut.status).toBe(2);
    expect(noOut.stderr.trim()).toBe('error: resume=true continues the run in out=; name its folder');
  }, 120_000);

  it.runIf(canMountSmallDisk(path.join(dir, 'probe')))('on a full disk stops with one sentence naming the file, its last checkpoint intact (needs root to mount a small tmpfs)', () => {
    // Room for the first checkpoint of this run and the small files, not for a second checkpoint.
    const checkpointBytes = statSync(path.join(first, 'checkpoints', 'final.flowtune')).size;
    const disk = smallDisk(path.join(dir, 'disk'), Math.ceil((1.5 * checkpointBytes) / 1024) + 64)!;
    try {
      const out = path.join(disk.dir, 'run');
      const result = train([`ckpt=${CKPT}`, `out=${out}`, 'checkpoint_every=1']);
      expect(result.status).toBe(1);
      // The one line before it says which backend trained.
      expect(result.stderr.trim().split('\n').filter((line) => !line.startsWith('backend: '))).toEqual([`error: cannot write ${path.join(out, 'checkpoints', 'iter-000002.flowtune')}: no space left on the device (ENOSPC)`]);
      expect(readdirSync(path.join(out, 'checkpoints'))).toEqual(['iter-000001.flowtune']);
      const checkpoint = decodePolicyCheckpoint(new Uint8Array(readFileSync(path.join(out, 'checkpoints', 'iter-000001.flowtune'))), { expectedTask: 'reach' });
      expect(checkpoint.progress?.iteration).toBe(1);
      expect(metrics(out).map((record) => record['progress/iteration'])).toEqual([1, 2]);
      expect(existsSync(path.join(out, 'checkpoints', 'final.flowtune'))).toBe(false);
    } finally {
      disk.unmount();
    }
  }, 120_000);
});
