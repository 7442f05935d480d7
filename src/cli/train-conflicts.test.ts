import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-train-conflicts-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run train` on the shipped lift checkpoint ([128, 128, 128] MLP, H = 8, two obs steps) in a real process. */
function train(name: string, ...overrides: string[]) {
  const out = path.join(dir, name);
  const result = spawnSync(tsx, [path.join(here, 'train.ts'), 'task=lift', 'ckpt=public/checkpoints/lift-bc.flowtune', `out=${out}`, ...overrides], {
    cwd: repoRoot, encoding: 'utf8', env: { ...process.env, FLOWTUNE_DEBUG: '' },
  });
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim(), outExists: existsSync(out) };
}

describe('npm run train with overrides that contradict the checkpoint', () => {
  it('exits 2 with one line naming both values, and creates no run folder', () => {
    const hidden = train('hidden', 'policy.hidden=64,64');
    expect(hidden.stderr).toBe('error: policy.hidden=64,64 contradicts the checkpoint, which has policy.hidden=128,128,128; drop the override or pretrain a new checkpoint');
    expect(hidden.status).toBe(2);
    expect(hidden.outExists).toBe(false);

    // Once a raw tfjs shape error: the history length sizes the encoder's input.
    const history = train('history', 'policy.n_obs_steps=1');
    expect(history.stderr).toBe('error: policy.n_obs_steps=1 contradicts the checkpoint, which has policy.n_obs_steps=2; drop the override or pretrain a new checkpoint');
    expect(history.status).toBe(2);
    expect(history.outExists).toBe(false);
    expect(history.stdout).toBe('');
  }, 120_000);

  it('names the preset when the contradicting override came from one', () => {
    const tiny = train('tiny', 'preset=tiny');
    expect(tiny.status).toBe(2);
    expect(tiny.stderr).toMatch(/^error: policy\.hidden=32,32 \(from preset tiny\) contradicts the checkpoint, which has policy\.hidden=128,128,128; /);
    expect(tiny.outExists).toBe(false);
  }, 120_000);
});
