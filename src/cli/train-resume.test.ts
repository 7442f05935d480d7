import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMetricsJsonl } from '../core/metrics/serialize';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-train-resume-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Small enough for a test; short episodes end inside every iteration; two env worker threads. */
const SETTINGS = [
  'task=reach', 'iterations=4', 'checkpoint_every=2', 'num_envs=4', 'env.workers=2', 'env.steps_per_iteration=4',
  'env.max_episode_steps=10', 'ppo.minibatch_size=8', 'ppo.critic_warmup_steps=0', 'eval_episodes=4', 'eval.every=2', 'seed=5',
];

function train(ckpt: string, out: string) {
  const result = spawnSync(tsx, [path.join(here, 'train.ts'), `ckpt=${ckpt}`, `out=${out}`, ...SETTINGS], { cwd: repoRoot, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result;
}

/** metrics.jsonl without the timing columns, which differ between any two runs. */
function metrics(out: string): Record<string, number>[] {
  const { records } = parseMetricsJsonl(readFileSync(path.join(out, 'metrics.jsonl'), 'utf8'));
  return records.map((record) => {
    const copy: Record<string, number> = { ...record } as Record<string, number>;
    for (const key of Object.keys(copy)) if (key === 'progress/wall_s' || key.startsWith('perf/')) delete copy[key];
    return copy;
  });
}

describe('npm run train resumed from a mid-run checkpoint', () => {
  it('ends with the same metrics as the run that never stopped, and its metrics.jsonl continues the history', () => {
    const straight = path.join(dir, 'straight');
    train('public/checkpoints/reach-bc.flowtune', straight);
    const resumed = path.join(dir, 'resumed');
    const second = train(path.join(straight, 'checkpoints', 'iter-000002.flowtune'), resumed);
    expect(second.stderr).toContain('resuming at iteration 2');
    expect(second.stderr).not.toContain('not exact');
    const expected = metrics(straight);
    expect(expected).toHaveLength(4);
    expect(expected.map((record) => record['progress/iteration'])).toEqual([1, 2, 3, 4]);
    // All four rows: two from the checkpoint's history, two trained after the resume.
    expect(metrics(resumed)).toEqual(expected);
    expect(readFileSync(path.join(resumed, 'metrics.csv'), 'utf8').trim().split('\n')).toHaveLength(5);
  }, 240_000);
});
