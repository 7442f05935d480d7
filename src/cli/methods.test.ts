import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METHODS, METHOD_ROWS, methodOnRow, runName, signatureMismatch, startFileName, trainArguments, type MethodId } from './methods';

const dirs = { runs: 'runs/reproduce', ckpts: 'public/checkpoints' };

/** The `npm run train --` arguments of seed 1's run, or the reason the method does not apply. */
function command(row: string, hasSuccess: boolean, id: MethodId): string {
  const onRow = methodOnRow(row, hasSuccess, id);
  return 'notApplicable' in onRow ? `n/a: ${onRow.notApplicable}` : trainArguments(row, hasSuccess, id, onRow.recipe, 1, dirs).join(' ');
}

describe('the methods registry', () => {
  it('names run folders as the locomotion stage did, and the new methods after their own names', () => {
    expect(METHODS.map((method) => runName('hopper', false, method.id, 2))).toEqual([
      'hopper-gaussian-s2', 'hopper-flowsde-s2', 'hopper-ppo-s2', 'hopper-dppo-s2', 'hopper-shortcut-ppo-s2',
    ]);
    // On a task with a success rule, <task>-ppo-s<seed> is the ppo stage's run with the run-config defaults (Flow-SDE), so ReinFlow's runs go elsewhere.
    expect(runName('pick-cube', true, 'reinflow', 0)).toBe('pick-cube-reinflow-s0');
    expect(runName('pick-cube-rgb', true, 'shortcut', '<seed>')).toBe('pick-cube-rgb-shortcut-ppo-s<seed>');
  });

  it('starts each method from its own BC checkpoint, and the Gaussian baseline from none', () => {
    expect(METHODS.map((method) => startFileName('walker2d', method.id))).toEqual([
      undefined, 'walker2d-bc.flowtune', 'walker2d-bc.flowtune', 'walker2d-diffusion-bc.flowtune', 'walker2d-shortcut-bc.flowtune',
    ]);
  });

  it('gives each row\'s methods their training command: Gym presets on locomotion, ManiSkill ones on pick-cube, the walker2d critic on both flow fine-tunes', () => {
    expect(command('hopper', false, 'gaussian')).toBe('task=hopper preset=gaussian-ppo seed=1 out=runs/reproduce/hopper-gaussian-s1 overwrite=true');
    expect(command('hopper', false, 'flowsde')).toBe('task=hopper ckpt=public/checkpoints/hopper-bc.flowtune preset=locomotion-flowsde seed=1 out=runs/reproduce/hopper-flowsde-s1 overwrite=true');
    expect(command('walker2d', false, 'flowsde')).toBe('task=walker2d ckpt=public/checkpoints/walker2d-bc.flowtune preset=locomotion-flowsde seed=1 out=runs/reproduce/walker2d-flowsde-s1 overwrite=true critic_lr=4e-3 ppo.critic_warmup_steps=40000');
    expect(command('walker2d', false, 'reinflow')).toBe('task=walker2d ckpt=public/checkpoints/walker2d-bc.flowtune preset=locomotion-reinflow seed=1 out=runs/reproduce/walker2d-ppo-s1 overwrite=true critic_lr=4e-3 ppo.critic_warmup_steps=40000');
    expect(command('walker2d', false, 'dppo')).toBe('task=walker2d ckpt=public/checkpoints/walker2d-diffusion-bc.flowtune preset=dppo seed=1 out=runs/reproduce/walker2d-dppo-s1 overwrite=true');
    expect(command('walker2d', false, 'shortcut')).toMatch(/^n\/a: seed 003 runs ShortCut BC → ReinFlow on its manipulation task/);
    // Flow-SDE on pick-cube is the run-config defaults (πRL's), as `npm run reproduce -- ppo` trains it.
    expect(command('pick-cube', true, 'flowsde')).toBe('task=pick-cube ckpt=public/checkpoints/pick-cube-bc.flowtune seed=1 out=runs/reproduce/pick-cube-flowsde-s1 overwrite=true');
    expect(command('pick-cube', true, 'reinflow')).toBe('task=pick-cube ckpt=public/checkpoints/pick-cube-bc.flowtune preset=reinflow-baseline seed=1 out=runs/reproduce/pick-cube-reinflow-s1 overwrite=true policy.denoise_steps=4');
    expect(command('pick-cube', true, 'dppo')).toBe('task=pick-cube ckpt=public/checkpoints/pick-cube-diffusion-bc.flowtune preset=dppo-manipulation seed=1 out=runs/reproduce/pick-cube-dppo-s1 overwrite=true');
    expect(command('pick-cube', true, 'shortcut')).toBe('task=pick-cube ckpt=public/checkpoints/pick-cube-shortcut-bc.flowtune preset=reinflow-baseline seed=1 out=runs/reproduce/pick-cube-shortcut-ppo-s1 overwrite=true');
    expect(command('pick-cube-rgb', true, 'shortcut')).toBe('task=pick-cube ckpt=public/checkpoints/pick-cube-rgb-shortcut-bc.flowtune preset=reinflow-pickcube-rgb seed=1 out=runs/reproduce/pick-cube-rgb-shortcut-ppo-s1 overwrite=true');
  });

  it('says in the config\'s own sentence where a policy family cannot read the row\'s observation', () => {
    expect(command('pick-cube-rgb', true, 'gaussian')).toMatch(/^n\/a: env\.obs_type must be state .*no point-cloud or image encoder$/);
    // Diffusion policies read camera images too, so DPPO has a camera run.
    expect(command('pick-cube-rgb', true, 'dppo')).toMatch(/preset=dppo-manipulation/);
    expect(command('pick-cube-pointcloud', true, 'gaussian')).toMatch(/^n\/a: env\.obs_type must be state/);
    const onCamera = METHODS.filter((method) => !('notApplicable' in methodOnRow('pick-cube-rgb', true, method.id))).map((method) => method.id);
    expect(onCamera).toEqual(['flowsde', 'reinflow', 'dppo', 'shortcut']);
    // Every method applies on the state rows, ShortCut on pick-cube only.
    for (const row of METHOD_ROWS.filter((name) => name !== 'pick-cube-rgb')) {
      const applicable = METHODS.filter((method) => !('notApplicable' in methodOnRow(row, row.startsWith('pick-cube'), method.id))).map((method) => method.id);
      expect(applicable).toEqual(row.startsWith('pick-cube') ? ['gaussian', 'flowsde', 'reinflow', 'dppo', 'shortcut'] : ['gaussian', 'flowsde', 'reinflow', 'dppo']);
    }
  });

  it('tells a run folder of another method by its config', () => {
    expect(signatureMismatch({ policy: { kind: 'flow' }, noise: { method: 'sde' } }, 'flowsde')).toBeUndefined();
    expect(signatureMismatch({ policy: { kind: 'flow' }, noise: { method: 'sde' } }, 'reinflow')).toBe('it trained with noise.method=sde, not BC → learned noise (ReinFlow)\'s noise.method=noise');
    // A Gaussian or diffusion run's config still holds the default noise.method; only the family counts there.
    expect(signatureMismatch({ policy: { kind: 'diffusion' }, noise: { method: 'sde' } }, 'dppo')).toBeUndefined();
    expect(signatureMismatch({ policy: { kind: 'gaussian' }, noise: { method: 'sde' } }, 'dppo')).toBe('it trained a gaussian policy, not diffusion BC → DPPO\'s diffusion one');
  });

  it('gives walker2d\'s flow fine-tunes the learning rates the locomotion stage of the reproduce script gives them', () => {
    const script = readFileSync(new URL('../../scripts/reproduce-checkpoints.sh', import.meta.url), 'utf8');
    const walker = /\[walker2d\]="([^"]*)"/.exec(/declare -A loco_lr=.*/.exec(script)![0])![1];
    expect(command('walker2d', false, 'reinflow').endsWith(` ${walker}`)).toBe(true);
  });
});

