/**
 * `npm run pretrain -- task=T demos=FILE out=FILE.flowtune ...`: stage-1 flow-matching BC
 * (DESIGN.md §3) from a demonstration file, with EMA weights and a shortcut option.
 */
import { writeFileSync } from 'node:fs';
import { CLI_NO_PPO_HOST } from '../core/config';
import { printConfigWarnings, runCli, parseRunArgs } from './cli-args';
import { bundleContents } from '../core/checkpoint/policy-checkpoint';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { firstDemoEpisodes } from '../core/envs/demo-format';
import { TASK_NAMES } from '../core/envs/task-types';
import { ConfigError } from '../core/errors';
import { FlowPolicy } from '../core/policy/flow-policy';
import { buildBcDataset } from '../core/rl/bc-dataset';
import { policyOptionsFromConfig } from '../core/rl/policy-setup';
import { PRETRAIN_DEFAULTS, pretrainPolicy } from '../core/rl/pretrain';
import { EVAL_DEFAULTS, evaluateBundle } from './evaluate-checkpoint';
import { pretrainRunConfig, readDemosFile } from './demos-file';
import { prepareRuntime } from './run-setup';

const SPEC = {
  task: { kind: 'enum', values: TASK_NAMES, required: true, doc: 'task the demos are for' },
  demos: { kind: 'string', required: true, doc: 'demonstration file from npm run demos' },
  out: { kind: 'string', required: true, doc: 'checkpoint to write (.flowtune)' },
  steps: { kind: 'int', min: 1, max: 10_000_000, default: PRETRAIN_DEFAULTS.steps, doc: 'gradient steps' },
  batch_size: { kind: 'int', min: 1, max: 65_536, default: PRETRAIN_DEFAULTS.batchSize, doc: 'samples per step' },
  lr: { kind: 'number', min: 1e-7, max: 1, default: PRETRAIN_DEFAULTS.learningRate, doc: 'Adam learning rate' },
  ema: { kind: 'number', min: 0, max: 0.99999, default: PRETRAIN_DEFAULTS.emaDecay, doc: 'EMA decay of the kept weights (0 = off)' },
  shortcut: { kind: 'number', min: 0, max: 1, default: PRETRAIN_DEFAULTS.shortcutFraction, doc: 'fraction of each batch on the shortcut self-consistency target' },
  episodes: { kind: 'int', min: 0, max: 1_000_000, default: 0, doc: 'use only the first N demo episodes (0 = all)' },
} as const;

async function main(): Promise<void> {
  const { args, config: parsedConfig, userOverrides } = parseRunArgs(process.argv.slice(2), SPEC, { program: 'npm run pretrain --' });
  printConfigWarnings(parsedConfig, userOverrides, CLI_NO_PPO_HOST);
  await prepareRuntime();
  const { demos, metadata } = readDemosFile(args.demos);
  if (metadata.task !== args.task) throw new ConfigError('task', `demos file is for task '${metadata.task}' but task is '${args.task}'`);
  const config = pretrainRunConfig(args.demos, parsedConfig, userOverrides, metadata);
  const limited = args.episodes > 0 ? firstDemoEpisodes(demos, args.episodes) : demos;
  const numPoints = config.env.obs_type === 'pointcloud' ? config.env.num_points : undefined;
  const dataset = buildBcDataset(limited, config.policy.n_obs_steps, config.policy.horizon, { numPoints });
  console.error(`BC on ${dataset.size} samples from ${limited.success.length} episodes`);
  const policy = new FlowPolicy(policyOptionsFromConfig(config, demos.obsDim, demos.actionDim), config.seed);
  const started = performance.now();
  try {
    await pretrainPolicy(policy, dataset, {
      steps: args.steps, batchSize: args.batch_size, learningRate: args.lr, emaDecay: args.ema, shortcutFraction: args.shortcut, seed: config.seed,
      logEvery: Math.max(1, Math.floor(args.steps / 20)),
      onProgress: (step, loss) => console.log(`step ${step}/${args.steps} loss ${loss.toFixed(4)} ${((performance.now() - started) / 1000).toFixed(1)}s`),
    });
    const bundle = { policy, obsNormalizer: dataset.obsNormalizer, actionNormalizer: dataset.actionNormalizer };
    let evalSummary: Record<string, number> = {};
    if (config.eval_episodes > 0) {
      // The same episodes, seeds and x_0 draws as `npm run eval` with its defaults, so the stored figure can be checked.
      const result = await evaluateBundle(bundle, config, { episodes: config.eval_episodes, seed: EVAL_DEFAULTS.seed, batch: EVAL_DEFAULTS.batch });
      evalSummary = { success_rate: result.success_rate, mean_return: result.mean_return, mean_length: result.mean_length, episodes: result.episodes, seed: EVAL_DEFAULTS.seed };
      console.log(`eval: success ${result.success_rate.toFixed(3)} over ${result.episodes} episodes from seed ${EVAL_DEFAULTS.seed}`);
    }
    writeFileSync(args.out, encodeFlowtune(await bundleContents({ bundle, task: args.task, stage: 'bc', config, step: args.steps, evalSummary })));
    console.log(JSON.stringify({ task: args.task, out: args.out, samples: dataset.size, steps: args.steps, ...evalSummary }));
  } finally {
    policy.dispose();
  }
}

void runCli(main);
