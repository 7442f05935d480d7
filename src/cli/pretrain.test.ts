import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeFlowtune, inspectFlowtune } from '../core/checkpoint/flowtune-file';
import { demoMetadataFor, writeDemoFile } from '../core/envs/demo-format';
import type { Demonstrations } from '../core/envs/expert-rollout';
import { observationSpec } from '../core/envs/observation';
import { getTask } from '../core/envs/task-registry';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-pretrain-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One made-up reach episode of `steps` steps whose observations hold `obsDim` values. */
function reachDemos(obsDim: number, steps: number): Uint8Array {
  const demos: Demonstrations = {
    task: 'reach', obsMode: 'state', obsDim, actionDim: 4,
    obs: new Float32Array(steps * obsDim).map((_, element) => Math.sin(element)), actions: new Float32Array(steps * 4).map((_, element) => Math.cos(element) / 2),
    rewards: new Float32Array(steps), episodeStarts: Int32Array.from([0, steps]), success: Uint8Array.from([1]), seeds: Int32Array.from([0]),
  };
  const slices = observationSpec(getTask('reach'), 'state', 256).slices;
  return writeDemoFile(demos, demoMetadataFor(demos, { seed: 0, noise: 0, obsSlices: slices, maxEpisodeSteps: 50 }));
}

/** `npm run pretrain` in a real process. */
function pretrain(...args: string[]) {
  const result = spawnSync(tsx, [path.join(here, 'pretrain.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, FLOWTUNE_DEBUG: '' } });
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

describe('npm run pretrain', () => {
  it('takes its settings as pretrain.* config keys or their short keys, and help lists both', () => {
    const help = pretrain('help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^ {2}steps +pretrain\.steps$/m);
    expect(help.stdout).toMatch(/^ {2}episodes +pretrain\.episodes$/m);
    expect(help.stdout).toContain('  pretrain.steps: an integer in [1, 10000000], default 3000. ');
    const short = pretrain('task=reach', 'demos=x.demos', 'out=x.flowtune', 'steps=0');
    expect(short.status).toBe(2);
    expect(short.stderr).toBe("error: steps must be an integer in [1, 10000000] (got '0')");
    const long = pretrain('task=reach', 'demos=x.demos', 'out=x.flowtune', 'pretrain.steps=0');
    expect(long.stderr).toBe("error: pretrain.steps must be an integer in [1, 10000000] (got '0')");
    const typo = pretrain('task=reach', 'demos=x.demos', 'out=x.flowtune', 'step=10');
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/^error: unknown key 'step'; did you mean steps\b/);
  }, 60_000);


  it('skips its evaluation with eval_episodes=0 alone and stores none, and replaces a stopped BC\'s state left beside it with a warning', () => {
    const demosPath = path.join(dir, 'reach-29.demos');
    writeFileSync(demosPath, reachDemos(29, 20));
    const out = path.join(dir, 'no-eval.flowtune');
    // A stopped BC's state left beside it is replaced, and said so.
    writeFileSync(`${out}.resume`, 'a stopped BC');
    const run = pretrain('task=reach', `demos=${demosPath}`, `out=${out}`, 'steps=2', 'batch_size=4', 'eval_episodes=0');
    expect(run.stderr.split('\n')).toEqual([`warning: ${out}.resume holds a stopped BC; starting over replaces it (resume=true continues it)`, 'BC on 20 samples from 1 episodes']);
    expect(existsSync(`${out}.resume`)).toBe(false);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.split('\n').at(-1)!)).toEqual({ task: 'reach', out, samples: 20, steps: 2 });
    expect(inspectFlowtune(new Uint8Array(readFileSync(out)), { expectedTask: 'reach' }).metadata.eval).toEqual({});
  }, 120_000);

  it('continues a killed BC from OUT.resume with resume=true, to the same checkpoint as a BC that never stopped, and removes the state when done', async () => {
    const demosPath = path.join(dir, 'reach-long.demos');
    writeFileSync(demosPath, reachDemos(29, 40));
    const small = ['policy.hidden=16,16', 'policy.encoder_hidden=16', 'policy.value_hidden=8', 'policy.noise_head_hidden=8', 'policy.horizon=4', 'policy.n_action_steps=2'];
    const common = [`demos=${demosPath}`, 'steps=300', 'batch_size=4', 'save_every=10', 'eval_episodes=0', ...small];
    const whole = path.join(dir, 'whole.flowtune');
    expect(pretrain('task=reach', ...common, `out=${whole}`).status).toBe(0);
    expect(existsSync(`${whole}.resume`)).toBe(false);

    const killed = path.join(dir, 'killed.flowtune');
    expect(pretrain('task=reach', `demos=${demosPath}`, `out=${killed}`, 'resume=true').stderr)
      .toBe(`error: resume=true continues the stopped BC saved in ${killed}.resume, but there is no such file (a finished pretrain removes it)`);
    // Its own process group, so the kill reaches the node process tsx starts as well.
    const child = spawn(tsx, [path.join(here, 'pretrain.ts'), 'task=reach', ...common, `out=${killed}`], { cwd: repoRoot, stdio: 'ignore', detached: true });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    while (!existsSync(`${killed}.resume`) && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    expect(existsSync(killed)).toBe(false);
    const stoppedAt = inspectFlowtune(new Uint8Array(readFileSync(`${killed}.resume`)), { expectedTask: 'reach' }).metadata.training.step;
    expect(stoppedAt).toBeGreaterThan(0);
    expect(stoppedAt).toBeLessThan(300);

    const other = pretrain('task=reach', ...common, 'lr=3e-4', `out=${killed}`, 'resume=true');
    expect(other.stderr.split('\n').at(-1)).toBe(`error: pretrain.lr is 0.0003 here but 0.001 in '${killed}.resume'; resume with the stopped BC's settings`);
    const resumed = pretrain('task=reach', ...common, `out=${killed}`, 'resume=true');
    expect(resumed.stderr.split('\n')).toEqual(['BC on 40 samples from 1 episodes', `continuing from step ${stoppedAt} of '${killed}.resume'`]);
    expect(resumed.status).toBe(0);
    expect(existsSync(`${killed}.resume`)).toBe(false);
    const tensors = (file: string) => decodeFlowtune(new Uint8Array(readFileSync(file)), { expectedShapes: null }).tensors;
    expect(tensors(killed)).toEqual(tensors(whole));
  }, 240_000);

  it("refuses demos whose observations do not fit the task's env, in one line naming the file, and writes no checkpoint", () => {
    const demosPath = path.join(dir, 'reach-30.demos');
    // reach's state observation holds 29 values.
    writeFileSync(demosPath, reachDemos(30, 20));
    const out = path.join(dir, 'never.flowtune');
    const run = pretrain('task=reach', `demos=${demosPath}`, `out=${out}`, 'steps=2', 'batch_size=4', 'eval_episodes=0');
    expect(run.stderr).toBe(`error: demos file '${demosPath}' cannot be used: the demos' observations hold 30 values but the env's hold 29`);
    expect(run.status).toBe(1);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
