import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectFlowtune } from '../core/checkpoint/flowtune-file';
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


  it('skips its evaluation with eval_episodes=0 alone, and stores none', () => {
    const demosPath = path.join(dir, 'reach-29.demos');
    writeFileSync(demosPath, reachDemos(29, 20));
    const out = path.join(dir, 'no-eval.flowtune');
    const run = pretrain('task=reach', `demos=${demosPath}`, `out=${out}`, 'steps=2', 'batch_size=4', 'eval_episodes=0');
    expect(run.stderr).toBe('BC on 20 samples from 1 episodes');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.split('\n').at(-1)!)).toEqual({ task: 'reach', out, samples: 20, steps: 2 });
    expect(inspectFlowtune(new Uint8Array(readFileSync(out)), { expectedTask: 'reach' }).metadata.eval).toEqual({});
  }, 120_000);

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
