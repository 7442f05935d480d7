/**
 * `npm run offline -- task=T ckpt=BC.flowtune demos=FILE out=FILE.flowtune ...`: stage 2 of the
 * recipe (DESIGN.md §12), advantage-weighted flow BC. Rolls out the stage-1 policy, fits a critic
 * on the demos and rollouts, continues flow-matching BC with each sample's loss weighted by
 * min(exp(Â/β), w_max) scaled to mean 1, evaluates, and writes a checkpoint of stage `offline`.
 */
import { writeFileSync } from 'node:fs';
import { CLI_NO_PPO_HOST, listConfigProblems, readDecimal, type RunConfig } from '../core/config';
import { bundleContents } from '../core/checkpoint/policy-checkpoint';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { firstDemoEpisodes } from '../core/envs/demo-format';
import { InThreadBatchEnv } from '../core/envs/in-thread-batch-env';
import { TASK_NAMES } from '../core/envs/task-types';
import { ConfigError, DemosError } from '../core/errors';
import type { MetricRecord } from '../core/metrics/metric-keys';
import type { PolicyBundle } from '../core/policy/policy-bundle';
import { DEFAULT_ADVANTAGE_WEIGHTS } from '../core/offline/advantage-weights';
import { demosFitProblem } from '../core/offline/demos-fit';
import { OFFLINE_STAGE_DEFAULTS, runOfflineStage } from '../core/offline/offline-stage';
import { DEFAULT_CRITIC_OPTIONS } from '../core/offline/value-critic';
import { runEnvConfig } from '../core/run/run-env-config';
import { UsageError, parseRunArgs, printConfigWarnings, runCli } from './cli-args';
import { readDemosFile } from './demos-file';
import { EVAL_DEFAULTS, evaluateBundle } from './evaluate-checkpoint';
import { loadMujocoNode } from './mujoco-node';
import { loadRunCheckpoint, prepareRuntime } from './run-setup';

const SPEC = {
  task: { kind: 'enum', values: TASK_NAMES, required: true, doc: 'task of the checkpoint and the demos' },
  ckpt: { kind: 'string', required: true, doc: 'stage-1 checkpoint (.flowtune) to continue' },
  demos: { kind: 'string', required: true, doc: 'demonstration file from npm run demos' },
  episodes: { kind: 'int', min: 0, max: 1_000_000, default: 0, doc: 'use only the first N demo episodes, as pretraining\'s episodes= does (0 = all)' },
  out: { kind: 'string', required: true, doc: 'checkpoint to write (.flowtune), stage offline' },
  rollouts: { kind: 'int', min: 0, max: 100_000, default: OFFLINE_STAGE_DEFAULTS.rollouts, doc: 'episodes of the stage-1 policy rolled out with the stochastic sampler (0 = demos only)' },
  rollout_seed: { kind: 'int', min: 0, max: 2 ** 30, default: OFFLINE_STAGE_DEFAULTS.rolloutSeed, doc: 'rollout episode e resets with rollout_seed + e (apart from demo and eval seeds)' },
  beta: { kind: 'number', min: 1e-3, max: 1e3, default: DEFAULT_ADVANTAGE_WEIGHTS.beta, doc: 'temperature on advantages standardized over the dataset: w = min(exp(Â/β), w_max)' },
  w_max: { kind: 'number', min: 1, max: 1e6, default: DEFAULT_ADVANTAGE_WEIGHTS.maxWeight, doc: 'cap on exp(Â/β) before the weights are scaled to mean 1' },
  steps: { kind: 'int', min: 1, max: 10_000_000, default: OFFLINE_STAGE_DEFAULTS.steps, doc: 'weighted BC gradient steps' },
  batch_size: { kind: 'int', min: 1, max: 65_536, default: OFFLINE_STAGE_DEFAULTS.batchSize, doc: 'samples per step, drawn from demos ∪ rollouts' },
  lr: { kind: 'number', min: 1e-7, max: 1, default: OFFLINE_STAGE_DEFAULTS.lr, doc: 'Adam learning rate of the weighted BC' },
  ema: { kind: 'number', min: 0, max: 0.99999, default: OFFLINE_STAGE_DEFAULTS.ema, doc: 'EMA decay of the kept weights, starting from the stage-1 weights (0 = off)' },
  shortcut: { kind: 'number', min: 0, max: 1, doc: `fraction of each batch on the shortcut self-consistency target (default ${OFFLINE_STAGE_DEFAULTS.shortcut} when the policy has the shortcut input, else 0)` },
  critic_steps: { kind: 'int', min: 1, max: 10_000_000, default: DEFAULT_CRITIC_OPTIONS.steps, doc: 'Adam steps fitting the value MLP to the returns-to-go' },
  critic_folds: { kind: 'int', min: 1, max: 16, default: 1, doc: 'cross-fitting: with k > 1 each episode\'s baseline comes from a critic fit on the other k − 1 folds (1 = one critic on every sample)' },
  critic_hidden: { kind: 'string', default: DEFAULT_CRITIC_OPTIONS.hidden.join(','), doc: 'hidden widths of the value MLP, comma-separated' },
} as const;

function parseWidths(text: string): number[] {
  const widths = text.split(',').map((part) => readDecimal(part.trim()).value);
  if (widths.length > 8 || widths.some((width) => !Number.isInteger(width) || width < 1 || width > 8192)) {
    throw new UsageError('critic_hidden', `critic_hidden must be 1 to 8 comma-separated integers in [1, 8192] (got '${text}')`);
  }
  return widths;
}

/** "step 100/1000 loss 0.0412 w_mean 1.020 w_max 7.310 clipped 0.012 12.3s" */
function progressLine(step: number, steps: number, record: MetricRecord, seconds: number): string {
  const value = (key: keyof MetricRecord, digits: number) => (record[key] ?? NaN).toFixed(digits);
  return `step ${step}/${steps} loss ${value('losses/weighted_bc', 4)} w_mean ${value('advantages/weight_mean', 3)} `
    + `w_max ${value('advantages/weight_max', 3)} clipped ${value('advantages/weight_clipped', 3)} ${seconds.toFixed(1)}s`;
}

/** Deterministic evaluation with `npm run eval`'s defaults, so the stored figure can be checked. */
async function evaluate(bundle: PolicyBundle, config: RunConfig): Promise<Record<string, number>> {
  const result = await evaluateBundle(bundle, config, { episodes: config.eval_episodes, seed: EVAL_DEFAULTS.seed, batch: EVAL_DEFAULTS.batch });
  return { success_rate: result.success_rate, mean_return: result.mean_return, mean_length: result.mean_length, episodes: result.episodes, seed: EVAL_DEFAULTS.seed };
}

async function main(): Promise<void> {
  // The checkpoint still decides horizon and K; loadRunCheckpoint validates once they are in.
  const { args, config: parsed, overrides, userOverrides } = parseRunArgs(process.argv.slice(2), SPEC, { program: 'npm run offline --', validate: false });
  const criticHidden = parseWidths(args.critic_hidden);
  if (listConfigProblems(parsed).length === 0) printConfigWarnings(parsed, userOverrides, CLI_NO_PPO_HOST);
  await prepareRuntime();
  const { loaded, config } = loadRunCheckpoint(args.ckpt, parsed, overrides);
  const { bundle } = loaded;
  try {
    const { demos: allDemos, metadata } = readDemosFile(args.demos);
    const demos = args.episodes > 0 ? firstDemoEpisodes(allDemos, args.episodes) : allDemos;
    const problem = demosFitProblem(metadata, config.task, bundle.policy.options);
    if (problem) throw new DemosError(`${problem}; record demos with npm run demos -- task=${config.task}`);
    // Demo files hold dense rewards; rollouts rewarded otherwise would not share their returns' scale.
    if (config.env.reward !== 'dense') throw new ConfigError('env.reward', `env.reward=${config.env.reward} cannot be used: the demos hold dense rewards, so stage 2 needs env.reward=dense`);
    const shortcut = args.shortcut ?? (bundle.policy.options.shortcut ? OFFLINE_STAGE_DEFAULTS.shortcut : 0);
    let start: Record<string, number> = {};
    if (config.eval_episodes > 0) {
      start = await evaluate(bundle, config);
      console.log(`start eval: success ${start.success_rate.toFixed(3)} over ${start.episodes} episodes from seed ${EVAL_DEFAULTS.seed}`);
    }
    const mj = await loadMujocoNode();
    const started = performance.now();
    const report = await runOfflineStage(bundle, demos, async (numEnvs) => new InThreadBatchEnv(mj, { ...runEnvConfig(config, 'train', false), numEnvs }), config, {
      rollouts: args.rollouts,
      rolloutSeed: args.rollout_seed,
      critic: { ...DEFAULT_CRITIC_OPTIONS, hidden: criticHidden, steps: args.critic_steps },
      criticFolds: args.critic_folds,
      weighting: { beta: args.beta, maxWeight: args.w_max },
      bc: { steps: args.steps, batchSize: args.batch_size, learningRate: args.lr, emaDecay: args.ema, shortcutFraction: shortcut, logEvery: Math.max(1, Math.floor(args.steps / 20)) },
      seed: config.seed,
    }, {
      onPhase: (line) => console.error(line),
      onProgress: (step, record) => console.log(progressLine(step, args.steps, record, (performance.now() - started) / 1000)),
    });
    let evalSummary: Record<string, number> = {};
    if (config.eval_episodes > 0) {
      evalSummary = await evaluate(bundle, config);
      console.log(`eval: success ${evalSummary.success_rate.toFixed(3)} over ${evalSummary.episodes} episodes from seed ${EVAL_DEFAULTS.seed}`);
    }
    const step = loaded.metadata.training.step + args.steps;
    writeFileSync(args.out, encodeFlowtune(await bundleContents({ bundle, task: config.task, stage: 'offline', config, step, evalSummary })));
    console.log(JSON.stringify({
      task: config.task, out: args.out, samples: report.demoSamples + report.rolloutSamples, demo_samples: report.demoSamples, rollout_samples: report.rolloutSamples,
      ...(report.rollouts.episodes > 0 ? { rollout_success_rate: report.rollouts.successRate } : {}), steps: args.steps, ...evalSummary,
      ...(start.success_rate !== undefined ? { start_success_rate: start.success_rate } : {}),
    }));
  } finally {
    bundle.policy.dispose();
  }
}

void runCli(main);
