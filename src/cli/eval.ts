/**
 * `npm run eval -- task=T ckpt=FILE.flowtune episodes=N seed=S`: deterministic ODE evaluation
 * (DESIGN.md §4, §10). The last stdout line is JSON with the success rate.
 */
import { runCli, parseRunArgs } from './cli-args';
import { evaluatePolicy } from '../core/rl/evaluate';
import { createRng } from '../core/random';
import { loadRunCheckpoint, openEvalEnv, prepareRuntime } from './run-setup';
import { TASK_NAMES } from '../core/envs/task-types';

const SPEC = {
  task: { kind: 'enum', values: TASK_NAMES, required: true, doc: 'task to evaluate on' },
  ckpt: { kind: 'string', required: true, doc: 'checkpoint (.flowtune)' },
  episodes: { kind: 'int', min: 1, max: 100_000, default: 100, doc: 'episodes, one per seed' },
  seed: { kind: 'int', min: 0, max: 2 ** 31 - 1, default: 1_000_000, doc: 'first reset seed (episode e uses seed + e); kept apart from training seeds' },
  batch: { kind: 'int', min: 1, max: 4096, default: 100, doc: 'episodes run side by side' },
} as const;

async function main(): Promise<void> {
  const { args, config: parsed, overrides } = parseRunArgs(process.argv.slice(2), SPEC, { program: 'npm run eval --' });
  await prepareRuntime();
  const { loaded, config } = await loadRunCheckpoint(args.ckpt, parsed, overrides);
  let successes = 0;
  let returns = 0;
  let lengths = 0;
  try {
    for (let first = 0; first < args.episodes; first += args.batch) {
      const count = Math.min(args.batch, args.episodes - first);
      const env = await openEvalEnv(config, count);
      try {
        const seeds = Array.from({ length: count }, (_, index) => args.seed + first + index);
        const summary = await evaluatePolicy(loaded.bundle, env, config, seeds, createRng(args.seed + first));
        successes += summary.successRate * count;
        returns += summary.meanReturn * count;
        lengths += summary.meanLength * count;
        console.error(`evaluated ${first + count}/${args.episodes} episodes: success ${Math.round(successes)}/${first + count}`);
      } finally {
        await env.dispose();
      }
    }
  } finally {
    loaded.bundle.policy.dispose();
  }
  console.log(JSON.stringify({
    task: config.task,
    episodes: args.episodes,
    success_rate: successes / args.episodes,
    mean_return: returns / args.episodes,
    mean_length: lengths / args.episodes,
  }));
}

void runCli(main);
