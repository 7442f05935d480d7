/**
 * `npm run offline -- task=T ckpt=BC.flowtune demos=FILE out=FILE.flowtune ...`: stage 2 of the
 * recipe (DESIGN.md §12), advantage-weighted flow BC, as core/run's runOfflineStageRun runs it with
 * the config's offline.* fields (short keys rollouts=, beta=, w_max=, steps=, ... name them too).
 * It rolls out the stage-1 policy, fits a critic on the demos and rollouts, continues flow-matching
 * BC with each sample's loss weighted by min(exp(Â/β), w_max) scaled to mean 1, evaluates, and
 * writes a checkpoint of stage `offline`. This host reads the files, prints progress and writes durably.
 */
import { resolveTaskArgument } from './task-loading';
import { CLI_OFFLINE_HOST, listConfigProblems, stageEvalOff } from '../core/config';
import { overriddenKeys } from '../core/config/pretrain-demos';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { InThreadBatchEnv } from '../core/envs/in-thread-batch-env';
import type { MetricRecord } from '../core/metrics/metric-keys';
import { runOfflineStageRun } from '../core/run/offline-stage-run';
import { evalMeasureText } from '../core/rl/evaluate';
import { parseRunArgs, printConfigWarnings, runCli } from './cli-args';
import { readDemosFile } from './demos-file';
import { writeFileDurable } from './durable-write';
import type { KeyAliases } from './key-aliases';
import { loadMujocoNode } from './mujoco-node';
import { prepareRuntime, readCheckpointFile } from './run-setup';

const SPEC = {
  task: { kind: 'string', required: true, doc: 'task of the checkpoint and the demos: a built-in name, or ./path/ to a task of your own' },
  ckpt: { kind: 'string', required: true, doc: 'stage-1 checkpoint (.flowtune) to continue' },
  demos: { kind: 'string', required: true, doc: 'demonstration file from npm run demos' },
  out: { kind: 'string', required: true, doc: 'checkpoint to write (.flowtune), stage offline' },
} as const;

/** The short keys README.md and scripts/reproduce-checkpoints.sh use. */
const ALIASES: KeyAliases = {
  episodes: 'offline.episodes', rollouts: 'offline.rollouts', rollout_seed: 'offline.rollout_seed', beta: 'offline.beta', w_max: 'offline.w_max',
  steps: 'offline.steps', batch_size: 'offline.batch_size', lr: 'offline.lr', ema: 'offline.ema', shortcut: 'offline.shortcut',
  critic_steps: 'offline.critic_steps', critic_folds: 'offline.critic_folds', critic_hidden: 'offline.critic_hidden', eval_every: 'offline.eval_every',
};

/** "step 100/1000 loss 0.0412 w_mean 1.020 w_max 7.310 clipped 0.012 12.3s" */
function progressLine(step: number, steps: number, record: MetricRecord, seconds: number): string {
  const value = (key: keyof MetricRecord, digits: number) => (record[key] ?? NaN).toFixed(digits);
  return `step ${step}/${steps} loss ${value('losses/weighted_bc', 4)} w_mean ${value('advantages/weight_mean', 3)} `
    + `w_max ${value('advantages/weight_max', 3)} clipped ${value('advantages/weight_clipped', 3)} ${seconds.toFixed(1)}s`;
}

async function main(): Promise<void> {
  // The checkpoint still decides horizon and K; the stage validates once they are in.
  const { args, config: given, overrides, userOverrides } = parseRunArgs((await resolveTaskArgument(process.argv.slice(2))), SPEC, { program: 'npm run offline --', validate: false, aliases: ALIASES });
  const parsed = stageEvalOff(given, overriddenKeys(userOverrides));
  if (listConfigProblems(parsed).length === 0) printConfigWarnings(parsed, userOverrides, CLI_OFFLINE_HOST);
  await prepareRuntime();
  const start = { kind: 'flowtune' as const, name: args.ckpt, bytes: readCheckpointFile(args.ckpt) };
  const { demos, metadata } = readDemosFile(args.demos);
  const mj = await loadMujocoNode();
  const steps = parsed.offline.steps;
  const { contents, config, report, startEval, finalEval } = await runOfflineStageRun({
    start, base: parsed, overrides,
    demos: { demos, metadata, source: `demos file '${args.demos}'` },
    ports: {
      openEnv: async (envConfig) => new InThreadBatchEnv(mj, envConfig),
      onPhase: (line) => console.error(line),
      onProgress: (step, record, seconds) => console.log(progressLine(step, steps, record, seconds)),
      // `npm run eval`'s episodes, seeds and x_0 draws, so the stored figures can be checked.
      onEval: (step, summary) => console.log(`${step === 0 ? 'start eval' : step < steps ? `eval at step ${step}` : 'eval'}: `
        + `${evalMeasureText(summary)} over ${summary.episodes} episodes from seed ${summary.seed}`),
    },
  });
  writeFileDurable(args.out, encodeFlowtune(contents));
  console.log(JSON.stringify({
    task: config.task, out: args.out, samples: report.demoSamples + report.rolloutSamples, demo_samples: report.demoSamples, rollout_samples: report.rolloutSamples,
    ...(report.rollouts.episodes > 0 ? { rollout_success_rate: report.rollouts.successRate } : {}), steps, ...finalEval,
    ...(startEval ? { start_success_rate: startEval.success_rate } : {}),
  }));
}

void runCli(main);
