import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import { parseCheckpointFile } from '../core/checkpoint/checkpoint-file';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-depth-cloud-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tiny DiT-X point-cloud policy on pick-cube's front camera, one iteration. */
const FROM_SCRATCH = [
  'task=pick-cube', 'env.obs_type=depth_pointcloud', 'policy.velocity_net=ditx', 'policy.ditx_dim=32', 'policy.ditx_depth=1', 'policy.ditx_heads=4',
  'policy.encoder_hidden=16,32', 'num_envs=2', 'env.num_points=64', 'iterations=1', 'env.workers=1', 'env.steps_per_iteration=8',
  'ppo.minibatch_size=8', 'eval_episodes=2', 'env.max_episode_steps=20',
];

function train(args: string[]) {
  return spawnSync(tsx, [path.join(here, 'train.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });
}

describe('npm run train with env.obs_type=depth_pointcloud', () => {
  const first = path.join(dir, 'first');

  it('trains the DiT-X point-cloud policy from the depth camera for one iteration, and its checkpoint keeps the camera', () => {
    const run = train([...FROM_SCRATCH, `out=${first}`]);
    expect(run.stderr).toContain('starting from a fresh ditx policy');
    expect(run.status).toBe(0);
    const bytes = new Uint8Array(readFileSync(path.join(first, 'checkpoints/final.flowtune')));
    const file = parseCheckpointFile({ kind: 'flowtune', name: 'final.flowtune', bytes });
    expect(file.kind).toBe('flow');
    const env = (file.metadata.config as { env: Record<string, unknown> }).env;
    expect(env).toMatchObject({ obs_type: 'depth_pointcloud', camera: 'default', image_size: 64, num_points: 64 });
  }, 180_000);

  it('fine-tunes that checkpoint on the same camera without being told, and refuses another camera in one sentence', () => {
    const ckpt = path.join(first, 'checkpoints/final.flowtune');
    // The checkpoint stopped after iteration 1; iteration 2 continues it.
    const settings = ['task=pick-cube', 'iterations=2', 'num_envs=2', 'env.workers=1', 'env.steps_per_iteration=8', 'ppo.minibatch_size=8', 'eval_episodes=2', 'env.max_episode_steps=20'];
    const again = train([`ckpt=${ckpt}`, ...settings, `out=${path.join(dir, 'second')}`]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('"iterations":2');
    const config = JSON.parse(readFileSync(path.join(dir, 'second', 'config.json'), 'utf8'));
    expect(config.env).toMatchObject({ obs_type: 'depth_pointcloud', camera: 'default', num_points: 64 });
    const refused = train([`ckpt=${ckpt}`, ...settings, 'env.camera=wrist', `out=${path.join(dir, 'third')}`]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe('error: env.camera=wrist contradicts the checkpoint, which has env.camera=default; drop the override or pretrain a new checkpoint');
  }, 240_000);
});
