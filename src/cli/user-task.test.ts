import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCheckpointFile } from '../core/checkpoint/checkpoint-file';
import type { Mujoco } from '../core/envs/mujoco-types';
import { parseMetricsJsonl } from '../core/metrics/serialize';
import { UsageError } from './cli-args';
import { loadMujocoNode } from './mujoco-node';
import { loadTaskPath } from './task-loading';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-user-task-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXAMPLE = path.join(repoRoot, 'examples/tasks/slide-to-target');
/** Gymnasium's hopper, reference data beside the project (never copied into it). */
const HOPPER_XML = path.resolve(repoRoot, '../shared/models/gymnasium/hopper.xml');
const TINY = ['iterations=2', 'num_envs=4', 'env.steps_per_iteration=16', 'ppo.minibatch_size=16', 'eval_episodes=2', 'env.workers=1'];

function cli(script: string, args: string[]) {
  return spawnSync(tsx, [path.join(here, script), ...args], { cwd: repoRoot, encoding: 'utf8' });
}

/** A copy of the example task folder with `edit` applied to one of its files. */
function brokenCopy(name: string, file: string, edit: (text: string) => string): string {
  const folder = path.join(dir, name);
  cpSync(EXAMPLE, folder, { recursive: true });
  writeFileSync(path.join(folder, file), edit(readFileSync(path.join(folder, file), 'utf8')));
  return folder;
}

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

async function loadError(folder: string): Promise<string> {
  try {
    await loadTaskPath(folder, mj);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${folder} loaded`);
}

describe('a task folder of a user\'s own', () => {
  it('loads the examples, checked by a seeded reset and ten random steps, with a hash of scene and module', async () => {
    const slide = await loadTaskPath(EXAMPLE, mj);
    expect(slide.name).toBe('slide-to-target');
    expect([...slide.controls.values()].map((control) => [control.kind, control.dim])).toEqual([['position', 2]]);
    expect(slide.expert?.control).toBe('default');
    expect(slide.hash).toMatch(/^[0-9a-f]{16}$/);
    const pendulum = await loadTaskPath(path.join(repoRoot, 'examples/tasks/pendulum-swingup'), mj);
    expect(pendulum.hasSuccess).toBe(false);
    // The same files give the same hash; one changed byte in the scene gives another.
    expect((await loadTaskPath(EXAMPLE, mj)).hash).toBe(slide.hash);
    const changed = brokenCopy('changed', 'scene.xml', (xml) => xml.replace('kp="40"', 'kp="41"'));
    expect((await loadTaskPath(changed, mj)).hash).not.toBe(slide.hash);
  });

  it('refuses a bad folder with one sentence naming the file and what is wrong', async () => {
    const label = (folder: string) => path.relative(process.cwd(), path.join(folder, 'task.js'));
    const xml = brokenCopy('bad-xml', 'scene.xml', (text) => text.replace('<worldbody>', '<worldbody><body>'));
    expect(await loadError(xml)).toMatch(new RegExp(`^${label(xml)}: its scene scene\\.xml does not compile: .*XML`));
    const noExport = brokenCopy('no-export', 'task.js', (text) => text.replace('export default {', 'const spec = {'));
    expect(await loadError(noExport)).toBe(`${label(noExport)}: the module exports no task; end it with export default defineTask({ ... }) or export default { ... }`);
    const nan = brokenCopy('nan-reward', 'task.js', (text) => text.replace('return { reward: success ? 1 : -distance,', 'return { reward: NaN,'));
    expect(await loadError(nan)).toMatch(new RegExp(`^${label(nan)}: a seeded reset and 10 random steps failed .*non-finite reward \\(NaN\\) at step 1`));
    const mesh = brokenCopy('missing-mesh', 'scene.xml', (text) => text.replace('<worldbody>', '<asset><mesh name="m" file="missing.stl"/></asset><worldbody>'));
    expect(await loadError(mesh)).toMatch(new RegExp(`^${label(mesh)}: its scene scene\\.xml does not compile: .*missing\\.stl`));
    // A read that writes 3 values into a slice of 2, and a fractional dim.
    const overflow = brokenCopy('slice-overflow', 'task.js', (text) => text.replace('out[at + 1] = view.arrays.qvel[1];', 'out[at + 1] = view.arrays.qvel[1]; out[at + 2] = 0;'));
    expect(await loadError(overflow)).toBe(`${label(overflow)}: observation slice 'puck_vel' writes outside its declared dim 2 after a seeded reset`);
    const underfill = brokenCopy('slice-underfill', 'task.js', (text) => text.replace("{ name: 'target_pos', dim: 2,", "{ name: 'target_pos', dim: 3,"));
    expect(await loadError(underfill)).toBe(`${label(underfill)}: observation slice 'target_pos' leaves value 2 of its declared dim 3 unwritten or not finite after a seeded reset`);
    const fractional = brokenCopy('fractional', 'task.js', (text) => text.replace("{ name: 'puck_vel', dim: 2,", "{ name: 'puck_vel', dim: 2.5,"));
    expect(await loadError(fractional)).toBe(`${label(fractional)}: observation[1].dim must be an integer in [1, 1000000] (got 2.5)`);
    const builtInName = brokenCopy('built-in-name', 'task.js', (text) => text.replace("name: 'slide-to-target'", "name: 'reach'"));
    expect(await loadError(builtInName)).toBe(`${label(builtInName)}: its name 'reach' is a built-in task's; give it another name`);
  });

  it('train, eval and export run it from the command line; a fresh policy starts without ckpt=', async () => {
    const out = path.join(dir, 'slide-run');
    const expectedHash = (await loadTaskPath(EXAMPLE, mj)).hash;
    const trained = cli('train.ts', [`task=${EXAMPLE}`, `out=${out}`, ...TINY]);
    expect(trained.status, trained.stderr).toBe(0);
    expect(trained.stderr).toContain('starting from a fresh mlp policy (no ckpt=)');
    const final = path.join(out, 'checkpoints/final.flowtune');
    const header = parseCheckpointFile({ kind: 'flowtune', name: final, bytes: new Uint8Array(readFileSync(final)) });
    expect(header.metadata.task).toBe('slide-to-target');
    expect(header.metadata.task_hash).toBe(expectedHash);
    const evaluated = cli('eval.ts', [`task=${EXAMPLE}`, `ckpt=${final}`, 'episodes=3']);
    expect(evaluated.status, evaluated.stderr).toBe(0);
    expect(JSON.parse(evaluated.stdout.trim().split('\n').at(-1)!)).toMatchObject({ task: 'slide-to-target', episodes: 3 });
    // Export needs no task=: the checkpoint holds every shape the graph needs, and the graph is the one task= gives.
    const alone = path.join(dir, 'slide-alone.onnx');
    const withTask = path.join(dir, 'slide-with-task.onnx');
    const exportedAlone = cli('export.ts', [`ckpt=${final}`, 'format=onnx', `out=${alone}`]);
    expect(exportedAlone.status, exportedAlone.stderr).toBe(0);
    expect(exportedAlone.stdout).toMatch(/→ actions \[batch, \d+, 2\] for slide-to-target \(default\)/);
    expect(cli('export.ts', [`task=${EXAMPLE}`, `ckpt=${final}`, 'format=onnx', `out=${withTask}`]).status).toBe(0);
    expect(readFileSync(alone).equals(readFileSync(withTask))).toBe(true);
    expect(cli('export.ts', [`ckpt=${final}`, 'format=tfjs', `out=${path.join(dir, 'slide-alone.json')}`]).status).toBe(0);
    // Without task= the checkpoint's task is not loaded: one sentence says how to load it.
    const unloaded = cli('eval.ts', ['task=slide-to-target', `ckpt=${final}`, 'episodes=3']);
    expect(unloaded.status).toBe(2);
    expect(unloaded.stderr.trim()).toMatch(/^error: task 'slide-to-target' is unknown; known tasks: reach, .*; a task of your own is task=\.\/path\/to\/task\//);
  }, 180_000);
});

describe.skipIf(!existsSync(HOPPER_XML))('a hopper on Gymnasium\'s reference scene, as a user task', () => {
  it('trains two iterations from a fresh policy, evaluates, exports ONNX, and refuses the checkpoint once the scene changes', () => {
    const folder = path.join(dir, 'hopper');
    cpSync(path.join(here, 'fixtures/hopper-task'), folder, { recursive: true });
    cpSync(HOPPER_XML, path.join(folder, 'hopper.xml'));
    const out = path.join(dir, 'hopper-run');
    const trained = cli('train.ts', [`task=${folder}`, `out=${out}`, ...TINY]);
    expect(trained.status, trained.stderr).toBe(0);
    const { records } = parseMetricsJsonl(readFileSync(path.join(out, 'metrics.jsonl'), 'utf8'));
    expect(records).toHaveLength(2);
    // No success rule: returns are reported, and no success rate at all.
    expect(Number.isFinite(records[1]['eval/episode_return'])).toBe(true);
    expect(records.some((record) => 'eval/success_rate' in record || 'charts/success_rate' in record)).toBe(false);
    const final = path.join(out, 'checkpoints/final.flowtune');
    const evaluated = cli('eval.ts', [`task=${folder}`, `ckpt=${final}`, 'episodes=2']);
    expect(evaluated.status, evaluated.stderr).toBe(0);
    expect(Number.isFinite(JSON.parse(evaluated.stdout.trim().split('\n').at(-1)!).mean_return)).toBe(true);
    const onnx = path.join(dir, 'hopper.onnx');
    const exported = cli('export.ts', [`task=${folder}`, `ckpt=${final}`, 'format=onnx', `out=${onnx}`]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/obs \[batch, 2, 11\] .* actions \[batch, 4, 3\] for hopper-plugin/);
    appendFileSync(path.join(folder, 'hopper.xml'), '<!-- edited -->\n');
    const refused = cli('eval.ts', [`task=${folder}`, `ckpt=${final}`, 'episodes=2']);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^error: checkpoint was made on another version of task 'hopper-plugin' \(task hash [0-9a-f]{16}, the loaded task is [0-9a-f]{16}\): its scene or module changed; set accept_task_version=true to use it anyway$/);
    const accepted = cli('eval.ts', [`task=${folder}`, `ckpt=${final}`, 'episodes=2', 'accept_task_version=true']);
    expect(accepted.status, accepted.stderr).toBe(0);
  }, 240_000);
});
