import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleContents } from '../core/checkpoint/policy-checkpoint';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { freshBundle, tinyConfig } from '../core/rl/fixtures/test-support';
import { prepareRuntime } from './run-setup';
import { inRowOrder } from './methods-compare';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-methods-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REACH_OBS_DIM = 29;
const REACH_ACTION_DIM = 4;
const checkpoint = path.join(dir, 'reach-bc.flowtune');

/** A run folder: its config's family and noise, three records with an in-run evaluation each (env steps offset per seed), and its final checkpoint unless `unfinished`. */
function runFolder(name: string, kind: string, noise: string, offset: number, unfinished = false): void {
  const runDir = path.join(dir, name);
  mkdirSync(path.join(runDir, 'checkpoints'), { recursive: true });
  writeFileSync(path.join(runDir, 'config.json'), JSON.stringify({ task: 'reach', policy: { kind }, noise: { method: noise } }));
  const records = [1, 2, 3].map((iteration) => ({
    'progress/iteration': iteration, 'progress/env_steps': iteration * 1000 + offset, 'progress/wall_s': iteration * 10, 'eval/success_rate': iteration / 4,
  }));
  writeFileSync(path.join(runDir, 'metrics.jsonl'), `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  if (!unfinished) copyFileSync(checkpoint, path.join(runDir, 'checkpoints', 'final.flowtune'));
}

function results(args: string[]) {
  return spawnSync(tsx, [path.join(here, 'results.ts'), 'compare=methods', 'seeds=0,1', `runs=${dir}`, `ckpts=${dir}`, 'episodes=2', 'seed=7', ...args], { cwd: repoRoot, encoding: 'utf8' });
}

beforeAll(async () => {
  await prepareRuntime();
  // One tiny reach policy with random weights stands in for the BC checkpoint and every run's final one.
  const config = tinyConfig();
  const bundle = freshBundle(config, REACH_OBS_DIM, REACH_ACTION_DIM, 11);
  try {
    writeFileSync(checkpoint, encodeFlowtune(await bundleContents({ bundle, task: 'reach', stage: 'bc', config, step: 0, evalSummary: {} })));
  } finally {
    bundle.policy.dispose();
  }
  runFolder('reach-flowsde-s0', 'flow', 'sde', 0);
  runFolder('reach-flowsde-s1', 'flow', 'sde', 24);
  runFolder('reach-reinflow-s0', 'flow', 'noise', 0);
  runFolder('reach-reinflow-s1', 'flow', 'noise', 0, true);
  // Another method's run where DPPO's would be: left out, not evaluated as DPPO.
  runFolder('reach-dppo-s0', 'flow', 'noise', 0);
});

describe('the methods page\'s table order', () => {
  it('is the methods\' row order whichever tables were evaluated and which kept, other tasks after as named', () => {
    // tasks=pick-cube,hopper keep=walker2d,lift,reach pushes the evaluated tables first, then the kept ones.
    const pushed = ['pick-cube', 'hopper', 'walker2d', 'lift', 'reach'].map((task) => ({ task }));
    expect(inRowOrder(pushed).map(({ task }) => task)).toEqual(['hopper', 'walker2d', 'pick-cube', 'lift', 'reach']);
    expect(inRowOrder([{ task: 'lift' }, { task: 'reach' }]).map(({ task }) => task)).toEqual(['lift', 'reach']);
  });
});

describe('npm run results -- compare=methods', () => {
  const page = path.join(dir, 'page', 'methods.md');

  it('evaluates every method\'s start and finished runs, says which are not run, and draws the curves with seed bands', () => {
    const run = results(['tasks=reach', `out=${page}`, 'wall_note=one run at a time.']);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(page, 'utf8');
    expect(run.stdout).toBe(text);
    expect(text).toContain('### reach (success rate)');
    // 3000 and 3024 env steps in 30 s each: 100 and 100.8 steps/s, mean 100.4.
    expect(text).toMatch(/\| BC → Flow-SDE \(πRL\) \| \d+\.\d% \| \d+\.\d% ± \d+\.\d% \(s0 \d+\.\d%, s1 \d+\.\d%\) \| 3,012 \(3,000–3,024\) \| 0\.5 min \| 100 \(100–101\) \| — \|/);
    expect(text).toMatch(/\| BC → learned noise \(ReinFlow\) \| \d+\.\d% \| \d+\.\d% \(1 seed, s0\) \| 3,000 \| 0\.5 min \| 100 \| — \|/);
    expect(text).toContain('| Gaussian PPO from scratch | — (from scratch) | not run | — | — | — | — |');
    expect(text).toContain('| diffusion BC → DPPO | no BC checkpoint | not run | — | — | — | — |');
    expect(text).toContain('| ShortCut BC → ReinFlow | no BC checkpoint | not run | — | — | — | — |');
    expect(text).toContain('](methods-reach.svg)');
    expect(text).toContain('Wall-clock: one run at a time.');
    expect(run.stderr).toContain(`warning: ${path.join(dir, 'reach-reinflow-s1')} has no checkpoints/final.flowtune`);
    expect(run.stderr).toContain(`warning: ${path.join(dir, 'reach-dppo-s0')} is left out of the diffusion BC → DPPO row: it trained a flow policy`);
    expect(run.stderr).toContain(`warning: ${dir} holds no finished reach-gaussian-s<seed> run for seeds 0, 1; reach's Gaussian PPO from scratch row reads "not run"`);
    // The BC checkpoint both flow methods start from is evaluated once, and each run's final checkpoint once.
    expect(run.stderr.split('\n').filter((line) => line.startsWith(checkpoint)).length).toBe(1);

    const svg = readFileSync(path.join(dir, 'page', 'methods-reach.svg'), 'utf8');
    // Flow-SDE's seeds log at 1000, 2000, 3000 and 1024, 2024, 3024: the band spans 1024..3000, on the 4 points of their
    // union there (1024, 2000, 2024, 3000), so 8 corners; ReinFlow's one seed gives its 3 points, 6 corners.
    const bands = [...svg.matchAll(/<polygon[^>]*points="([^"]*)"/g)].map((match) => match[1].split(' ').length);
    expect(bands).toEqual([8, 6]);
    expect(svg).toContain('BC → Flow-SDE (πRL) (2 seeds)');
    expect(svg).toContain('BC → learned noise (ReinFlow) (1 seed)');
    expect(svg).toContain('Gaussian PPO from scratch (not run)');
  });

  it('carries a task\'s table over from the page with keep=, evaluating nothing for it', () => {
    const before = readFileSync(page, 'utf8');
    const kept = before.split('\n').filter((line) => line.startsWith('| BC → Flow-SDE'))[0];
    // lift has no runs and no BC checkpoint here, so nothing is evaluated at all.
    const run = results(['tasks=lift', 'keep=reach', `out=${page}`]);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(page, 'utf8');
    expect(text).toContain('### lift (success rate)');
    expect(text).toContain(kept);
    expect(text).toContain('The reach table is carried over from an earlier run of this page.');
    expect(existsSync(path.join(dir, 'page', 'methods-lift.svg'))).toBe(false);
    expect(results(['tasks=reach', 'keep=reach', `out=${page}`]).stderr).toContain('error: reach is both evaluated (tasks=) and kept (keep=); name it in one of them');
  });

  it('carries one method\'s row over with keep=TASK:METHOD, its curves redrawn from the curves file, and evaluates the others', () => {
    const before = readFileSync(page, 'utf8');
    const reachSection = before.slice(before.indexOf('### reach'));
    const keptLine = reachSection.split('\n').find((line) => line.startsWith('| BC → Flow-SDE'))!;
    expect(keptLine).toMatch(/\| BC → Flow-SDE \(πRL\) \| \d+\.\d% \| \d+\.\d% ± /);
    // The kept row's run folders are gone: its cells and curves come from the page and its curves file.
    for (const seed of [0, 1]) renameSync(path.join(dir, `reach-flowsde-s${seed}`), path.join(dir, `moved-flowsde-s${seed}`));
    try {
      const run = results(['tasks=reach', 'keep=reach:flowsde', `out=${page}`]);
      expect(run.status, run.stderr).toBe(0);
      const text = readFileSync(page, 'utf8');
      expect(text).toContain(keptLine);
      expect(text).toMatch(/\| BC → learned noise \(ReinFlow\) \| \d+\.\d% \| \d+\.\d% \(1 seed, s0\) \| 3,000 \|/);
      expect(text).toContain('The reach BC → Flow-SDE (πRL) row is carried over from an earlier run of this page, with the cells it had there.');
      expect(run.stderr).not.toContain('reach-flowsde');
      const svg = readFileSync(path.join(dir, 'page', 'methods-reach.svg'), 'utf8');
      expect(svg).toContain('BC → Flow-SDE (πRL) (2 seeds)');
      const curves = JSON.parse(readFileSync(path.join(dir, 'page', 'methods-reach.curves.json'), 'utf8'));
      expect(curves.flowsde.map((curve: { seed: number; xs: number[] }) => [curve.seed, curve.xs])).toEqual([[0, [1000, 2000, 3000]], [1, [1024, 2024, 3024]]]);

      const refused = (keep: string) => results(['tasks=reach', `keep=${keep}`, `out=${page}`]).stderr.trim().split('\n').at(-1);
      expect(refused('reach:nope')).toBe('error: reach:nope: no method \'nope\'; the methods are gaussian, flowsde, reinflow, dppo, shortcut');
      expect(refused('lift:flowsde')).toBe('error: lift:flowsde keeps one row of lift, which tasks= does not evaluate; keep=lift keeps its whole table');
      expect(refused('reach:gaussian')).toBe(`error: ${page} has no reach Gaussian PPO from scratch results to keep`);
      writeFileSync(path.join(dir, 'page', 'methods-reach.curves.json'), '{"flowsde": [{"seed": 0, "xs": [1], "ys": "x"}]}');
      expect(refused('reach:flowsde')).toBe(`error: ${path.join(dir, 'page', 'methods-reach.curves.json')}'s flowsde entry is not a list of {seed, xs, ys} curves of finite numbers; delete it to keep the row without its curve`);
    } finally {
      for (const seed of [0, 1]) renameSync(path.join(dir, `moved-flowsde-s${seed}`), path.join(dir, `reach-flowsde-s${seed}`));
    }
  });
});
