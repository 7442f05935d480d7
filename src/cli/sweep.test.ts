import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePolicyCheckpoint } from '../core/checkpoint/fixtures/decode-bytes';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two tiny runs a variant: 2 iterations of 2 envs × 4 decisions on reach, from the shipped reach checkpoint. */
const TINY = [
  'task=reach', 'iterations=2', 'num_envs=2', 'env.steps_per_iteration=4', 'ppo.minibatch_size=4', 'ppo.epochs=1',
  'eval_episodes=2', 'eval.record_episodes=0', 'final_eval_episodes=4', 'parallel=2',
];

function sweep(args: string[]) {
  return spawnSync(tsx, [path.join(here, 'sweep.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });
}

describe('npm run sweep', () => {
  it('dry_run prints one line per variant × seed and runs nothing', () => {
    const out = path.join(dir, 'dry');
    const result = sweep(['task=pick-cube', 'seeds=0,1,2', `out=${out}`, 'dry_run=true']);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(66);
    expect(lines[0]).toMatch(/^baseline\tseed 0\t/);
    expect(lines.at(-1)).toMatch(/^rollout:more_epochs\tseed 2\t.* ppo\.epochs=8$/);
    expect(existsSync(out)).toBe(false);
  });

  it('runs two variants, writes the summary, and skips finished runs when run again', () => {
    const out = path.join(dir, 'two');
    const first = sweep([...TINY, `out=${out}`, 'configs=baseline,lr:high', 'seeds=0']);
    expect(first.status, first.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect(summary.finishedRuns).toBe(2);
    expect(summary.variants.map((variant: { variant: string }) => variant.variant)).toEqual(['baseline', 'lr:high']);
    // Every run is evaluated on the same 4 fresh episodes: rates are multiples of 1/4.
    for (const run of summary.runs) expect([0, 0.25, 0.5, 0.75, 1]).toContain(run.successRate);
    // The run's config is the preset's, with the sweep's base and the variant's own keys.
    const config = JSON.parse(readFileSync(path.join(out, 'runs', 'lr-high-s0', 'config.json'), 'utf8'));
    expect(config.actor_lr).toBe(1e-4);
    expect(config.num_envs).toBe(2);
    expect(config.noise.method).toBe('noise');
    expect(readFileSync(path.join(out, 'summary.md'), 'utf8')).toMatch(/\| lr:high \| 0 \| .* \| [+−]\d+\.\d pts \|/);
    const logTime = statSync(path.join(out, 'runs', 'baseline-s0', 'train.log')).mtimeMs;
    const again = sweep([...TINY, `out=${out}`, 'configs=baseline,lr:high', 'seeds=0']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('2 of 2 runs already finished; 0 to run');
    expect(statSync(path.join(out, 'runs', 'baseline-s0', 'train.log')).mtimeMs).toBe(logTime);
    const status = sweep(['status', `out=${out}`]);
    expect(status.stdout).toContain('every run finished');
  }, 120_000);

  it('sweeps the Gaussian PPO baseline from scratch (no shipped checkpoint), evaluating its mean action', () => {
    const out = path.join(dir, 'gaussian');
    const result = sweep([...TINY, `out=${out}`, 'preset=gaussian-baseline', 'seeds=0', 'ppo.minibatch_size=8']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect(summary.finishedRuns).toBe(1);
    expect([0, 0.25, 0.5, 0.75, 1]).toContain(summary.runs[0].successRate);
    const config = JSON.parse(readFileSync(path.join(out, 'runs', 'gaussian-s0', 'config.json'), 'utf8'));
    expect(config.policy.kind).toBe('gaussian');
    expect(JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8')).ckpt).toBe('');
  }, 120_000);

  it('trains a run again when its final checkpoint is cut short, instead of counting it as trained', () => {
    const out = path.join(dir, 'two');
    const final = path.join(out, 'runs', 'baseline-s0', 'checkpoints', 'final.flowtune');
    const bytes = readFileSync(final);
    // As a kill mid-write would leave it with plain writes: half the file under its final name, no result.
    writeFileSync(final, bytes.subarray(0, bytes.length >> 1));
    rmSync(path.join(out, 'runs', 'baseline-s0', 'result.json'));
    const again = sweep([...TINY, `out=${out}`, 'configs=baseline,lr:high', 'seeds=0']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(`warning: ${final} is not a usable checkpoint (`);
    expect(again.stderr).toContain('; training baseline-s0 again');
    // Trained again: a whole checkpoint of the run's last iteration.
    expect(decodePolicyCheckpoint(new Uint8Array(readFileSync(final)), { expectedTask: 'reach' }).progress?.iteration).toBe(2);
    expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')).finishedRuns).toBe(2);
  }, 120_000);

  it('refuses a bad variant, seed= in place of seeds=, and a folder holding another sweep, with exit 2', () => {
    expect(sweep(['task=reach', `out=${path.join(dir, 'x')}`, 'configs=lr:huge']).stderr).toMatch(/^error: 'lr:huge' is not a variant of reinflow-ablation/);
    const seed = sweep(['task=reach', `out=${path.join(dir, 'x')}`, 'seed=3']);
    expect(seed.status).toBe(2);
    expect(seed.stderr).toMatch(/seeds=0,1,2, not seed=/);
    const other = sweep([...TINY, `out=${path.join(dir, 'two')}`, 'configs=baseline', 'seeds=0', 'iterations=3']);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/holds a sweep with other settings/);
  });
});
