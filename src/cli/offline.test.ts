import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectFlowtune } from '../core/checkpoint/flowtune-file';
import { demoMetadataFor, writeDemoFile } from '../core/envs/demo-format';
import { collectExpertDemos } from '../core/envs/expert-rollout';
import type { Demonstrations } from '../core/envs/expert-rollout';
import type { Mujoco } from '../core/envs/mujoco-types';
import { observationSpec } from '../core/envs/observation';
import { getTask } from '../core/envs/task-registry';
import { loadMujocoNode } from './mujoco-node';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-offline-'));
const CKPT = 'public/checkpoints/reach-bc.flowtune';
const reachDemos = path.join(dir, 'reach.demos');
const liftDemos = path.join(dir, 'lift.demos');

function demoBytes(demos: Demonstrations, maxEpisodeSteps: number): Uint8Array {
  const slices = observationSpec(getTask(demos.task), 'state', 256).slices;
  return writeDemoFile(demos, demoMetadataFor(demos, { seed: 0, noise: 0.3, obsSlices: slices, maxEpisodeSteps }));
}

beforeAll(async () => {
  const mj = (await loadMujocoNode()) as unknown as Mujoco;
  writeFileSync(reachDemos, demoBytes(collectExpertDemos(mj, { task: 'reach', episodes: 4, seed: 0, noise: 0.3 }), 50));
  // Two made-up lift steps: only the task in the file matters here.
  const liftObsDim = observationSpec(getTask('lift'), 'state', 256).dim;
  writeFileSync(liftDemos, demoBytes({
    task: 'lift', obsMode: 'state', obsDim: liftObsDim, actionDim: 4, obs: new Float32Array(2 * liftObsDim), actions: new Float32Array(8), rewards: new Float32Array(2),
    episodeStarts: Int32Array.from([0, 2]), success: Uint8Array.from([1]), seeds: Int32Array.from([0]),
  }, 100));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run offline` in a real process. */
function offline(...args: string[]) {
  const result = spawnSync(tsx, [path.join(here, 'offline.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, FLOWTUNE_DEBUG: '' } });
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

describe('npm run offline', () => {
  it('exits 2 with one line naming an unknown key or a bad value', () => {
    const unknown = offline('task=reach', `ckpt=${CKPT}`, `demos=${reachDemos}`, 'out=x.flowtune', 'betta=2');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.split('\n')).toHaveLength(1);
    expect(unknown.stderr).toMatch(/^error: unknown key 'betta'; did you mean beta\?/);
    const beta = offline('task=reach', `ckpt=${CKPT}`, `demos=${reachDemos}`, 'out=x.flowtune', 'beta=0');
    expect(beta.status).toBe(2);
    expect(beta.stderr).toBe("error: beta must be a number in [0.001, 1000] (got '0')");
    const widths = offline('task=reach', `ckpt=${CKPT}`, `demos=${reachDemos}`, 'out=x.flowtune', 'critic_hidden=64,x');
    expect(widths.status).toBe(2);
    expect(widths.stderr).toMatch(/^error: critic_hidden must be a comma-separated list of 1–8 integers in \[1, 8192\] \(got '64,x'/);
    // A short key and the config key it names, both given: one of them must go.
    const twice = offline('task=reach', `ckpt=${CKPT}`, `demos=${reachDemos}`, 'out=x.flowtune', 'beta=2', 'offline.beta=3');
    expect(twice.status).toBe(2);
    expect(twice.stderr).toBe('error: beta and offline.beta name the same field; give one of them');
  }, 60_000);

  it('exits 1 with one error line for a missing checkpoint, a bad demos file, or demos of another task', () => {
    const out = path.join(dir, 'never.flowtune');
    const missing = offline('task=reach', `ckpt=${path.join(dir, 'none.flowtune')}`, `demos=${reachDemos}`, `out=${out}`);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`error: checkpoint file '${path.join(dir, 'none.flowtune')}' does not exist`);
    const corrupt = path.join(dir, 'corrupt.demos');
    writeFileSync(corrupt, new Uint8Array([1, 2, 3]));
    const bad = offline('task=reach', `ckpt=${CKPT}`, `demos=${corrupt}`, `out=${out}`);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe(`error: demos file '${corrupt}' is invalid: demo file is 3 bytes; it must start with an 8-byte header length`);
    const noDemos = offline('task=reach', `ckpt=${CKPT}`, `demos=${path.join(dir, 'none.demos')}`, `out=${out}`);
    expect(noDemos.status).toBe(1);
    expect(noDemos.stderr).toBe(`error: demos file '${path.join(dir, 'none.demos')}' does not exist`);
    const lift = offline('task=reach', `ckpt=${CKPT}`, `demos=${liftDemos}`, `out=${out}`);
    expect(lift.status).toBe(1);
    expect(lift.stderr).toBe(`error: demos file '${liftDemos}' cannot be used: the demos are for task 'lift' but the task is 'reach'`);
    const wrongTask = offline('task=lift', `ckpt=${CKPT}`, `demos=${liftDemos}`, `out=${out}`);
    expect(wrongTask.status).toBe(1);
    expect(wrongTask.stderr).toBe("error: checkpoint is for task 'reach' but the run is 'lift'");
    expect(existsSync(out)).toBe(false);
  }, 120_000);

  it('writes a stage-offline checkpoint with its eval stored, a progress line per window and a final JSON line', () => {
    const out = path.join(dir, 'reach-offline.flowtune');
    const run = offline('task=reach', `ckpt=${CKPT}`, `demos=${reachDemos}`, `out=${out}`, 'rollouts=2', 'steps=4', 'batch_size=8', 'critic_steps=3', 'eval_episodes=2');
    expect(run.stderr).toMatch(/^rollouts: 2 episodes, \d+ decisions/m);
    expect(run.stderr).toMatch(/^critic: 3 steps on \d+ samples, mse [\d.]+, explained variance -?[\d.]+ \(in sample\)$/m);
    expect(run.stderr).toMatch(/^weights: beta 1, w_max 20, /m);
    expect(run.status).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('step '))).toHaveLength(4);
    expect(lines).toContainEqual(expect.stringMatching(/^step 4\/4 loss [\d.]+ w_mean [\d.]+ w_max [\d.]+ clipped [\d.]+ [\d.]+s$/));
    const summary = JSON.parse(lines[lines.length - 1]) as Record<string, number | string>;
    expect(summary).toMatchObject({ task: 'reach', out, steps: 4, episodes: 2, seed: 1_000_000 });
    const { metadata } = inspectFlowtune(new Uint8Array(readFileSync(out)), { expectedTask: 'reach' });
    expect(metadata.stage).toBe('offline');
    expect(metadata.eval).toEqual({ success_rate: summary.success_rate, mean_return: summary.mean_return, mean_length: summary.mean_length, episodes: 2, seed: 1_000_000 });
    // The stage-1 checkpoint's 600 steps, then 4 more.
    expect(metadata.training.step).toBe(604);
    const bcMetadata = inspectFlowtune(new Uint8Array(readFileSync(path.join(repoRoot, CKPT))), { expectedTask: 'reach' }).metadata;
    expect(metadata.normalizer).toEqual(bcMetadata.normalizer);
  }, 120_000);

  it('skips both evaluations with eval_episodes=0 alone, and stores none', () => {
    const out = path.join(dir, 'reach-offline-no-eval.flowtune');
    const run = offline('task=reach', `ckpt=${CKPT}`, `demos=${reachDemos}`, `out=${out}`, 'rollouts=2', 'steps=2', 'batch_size=8', 'critic_steps=3', 'eval_episodes=0');
    expect(run.stderr).not.toMatch(/error|warning/);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(/^(start )?eval/m);
    expect(inspectFlowtune(new Uint8Array(readFileSync(out)), { expectedTask: 'reach' }).metadata.eval).toEqual({});
  }, 120_000);
});
