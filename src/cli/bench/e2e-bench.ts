/**
 * `npm run bench -- e2e`: the wall-clock of a fixed short fine-tune (reach, from the shipped
 * BC checkpoint) and the success rate it ends at, as `npm run train` would run it.
 */
import { SMALLEST_TASK } from '../../tasks';
import { existsSync } from 'node:fs';
import { defaultConfig } from '../../core/config';
import { openRun } from '../../core/run/open-run';
import { nodeRunPorts } from '../node-run-ports';
import { openCheckpointFile, prepareRuntime } from '../run-setup';
import type { BenchRow } from './bench-row';

const CHECKPOINT = 'public/checkpoints/reach-bc.flowtune';
const OVERRIDES = ['num_envs=16', 'env.steps_per_iteration=16', 'ppo.minibatch_size=64', 'iterations=10', 'eval_episodes=50', 'eval.every=10', 'ppo.critic_warmup_steps=2000'];

export async function runBench(): Promise<BenchRow[]> {
  if (!existsSync(CHECKPOINT)) throw new Error(`the e2e bench needs ${CHECKPOINT}; build it with npm run reproduce -- bc`);
  await prepareRuntime();
  const base = { ...defaultConfig(), task: SMALLEST_TASK };
  const { checkpoint, config } = openCheckpointFile(CHECKPOINT, base, OVERRIDES);
  const started = performance.now();
  const opened = await openRun(config, checkpoint, nodeRunPorts(config));
  const trainer = opened.run;
  try {
    while (!trainer.done) await trainer.step();
  } finally {
    await opened.close();
  }
  const wall = (performance.now() - started) / 1000;
  const note = `reach from ${CHECKPOINT}: ${OVERRIDES.join(' ')}; ${trainer.envSteps} env steps`;
  return [
    { group: 'e2e', metric: 'finetune_wall_s', value: wall, unit: 's', task: SMALLEST_TASK, backend: 'wasm', note },
    { group: 'e2e', metric: 'final_success_rate', value: trainer.lastEval?.successRate ?? NaN, unit: 'fraction', task: SMALLEST_TASK, backend: 'wasm', note: `deterministic eval, ${config.eval_episodes} episodes from seed ${config.eval.seed}` },
  ];
}
