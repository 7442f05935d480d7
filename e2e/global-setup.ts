import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { FIXTURE_DIR } from './studio';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** A real sweep folder for the import journey: `npm run sweep` on reach, two variants, one seed, tiny runs. */
function writeSweepFixture(): void {
  const out = path.join(FIXTURE_DIR, 'sweep-reach-tiny');
  // A sweep folder resumes; one left by an earlier run of other code (another task version) would be refused.
  rmSync(out, { recursive: true, force: true });
  execFileSync(npx, [
    'tsx', 'src/cli/sweep.ts', 'preset=reinflow-ablation', 'task=reach', 'seeds=0', 'configs=baseline,lr:high',
    'iterations=3', 'num_envs=2', 'env.steps_per_iteration=8', 'ppo.minibatch_size=8', 'ppo.epochs=1', 'eval_episodes=2', 'eval.every=3',
    'eval.record_episodes=0', 'final_eval_episodes=4', 'parallel=1', `out=${out}`,
  ], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A real Gaussian PPO run folder (`npm run train -- preset=gaussian-ppo`, tiny), for importing its charts. */
function writeGaussianRunFixture(): void {
  execFileSync(npx, [
    'tsx', 'src/cli/train.ts', 'task=reach', 'preset=gaussian-ppo', 'num_envs=2', 'env.steps_per_iteration=16', 'ppo.minibatch_size=16',
    'ppo.epochs=1', 'total_env_steps=64', 'eval_episodes=2', 'eval.every=2', 'checkpoint_every=0', 'overwrite=true',
    `out=${path.join(FIXTURE_DIR, 'gaussian-reach-tiny')}`,
  ], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Writes the fixtures once per e2e run: tiny checkpoints built in Node, and a tiny sweep folder. */
export default function globalSetup(): void {
  execFileSync(npx, ['tsx', 'e2e/fixtures/make-fixtures.ts', FIXTURE_DIR], { stdio: 'inherit' });
  writeSweepFixture();
  writeGaussianRunFixture();
}
