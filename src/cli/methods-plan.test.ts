import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-methods-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run folder with its config's family and noise, finished or not. */
function runFolder(name: string, kind: string, noise: string, finished: boolean): void {
  mkdirSync(path.join(dir, 'runs', name, 'checkpoints'), { recursive: true });
  writeFileSync(path.join(dir, 'runs', name, 'config.json'), JSON.stringify({ policy: { kind }, noise: { method: noise } }));
  if (finished) writeFileSync(path.join(dir, 'runs', name, 'checkpoints', 'final.flowtune'), '');
}

describe('methods-plan', () => {
  it('lists the runs not trained yet and the BC checkpoints they need, and leaves another method\'s folder alone', () => {
    runFolder('hopper-gaussian-s0', 'gaussian', 'sde', true);
    // Stopped before its end: trained again.
    runFolder('hopper-dppo-s0', 'diffusion', 'sde', false);
    // A Flow-SDE run where ReinFlow's would be.
    runFolder('hopper-ppo-s0', 'flow', 'sde', true);
    mkdirSync(path.join(dir, 'ckpts'));
    writeFileSync(path.join(dir, 'ckpts', 'hopper-bc.flowtune'), '');
    const runs = path.join(dir, 'runs');
    const ckpts = path.join(dir, 'ckpts');
    const plan = spawnSync(tsx, [path.join(here, 'methods-plan.ts'), 'tasks=hopper', 'seeds=0', `runs=${runs}`, `ckpts=${ckpts}`], { cwd: repoRoot, encoding: 'utf8' });
    expect(plan.status, plan.stderr).toBe(0);
    expect(plan.stdout.trimEnd().split('\n')).toEqual([
      `start\t${ckpts}/hopper-diffusion-bc.flowtune\thopper diffusion-bc`,
      `train\t${runs}/hopper-flowsde-s0\ttask=hopper ckpt=${ckpts}/hopper-bc.flowtune preset=locomotion-flowsde seed=0 out=${runs}/hopper-flowsde-s0 overwrite=true`,
      `train\t${runs}/hopper-dppo-s0\ttask=hopper ckpt=${ckpts}/hopper-diffusion-bc.flowtune preset=dppo seed=0 out=${runs}/hopper-dppo-s0 overwrite=true`,
    ]);
    expect(plan.stderr).toContain(`warning: ${runs}/hopper-ppo-s0 is left as it is: it trained with noise.method=sde, not BC → learned noise (ReinFlow)'s noise.method=noise`);
    expect(plan.stderr).toContain('hopper: ShortCut BC → ReinFlow does not apply');
  });
});
