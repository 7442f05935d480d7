/**
 * Stage 2 of the recipe as a run kind (DESIGN.md §2 "One path for every host", §12): from a
 * stage-1 checkpoint (opened the one way, openCheckpoint), advantage-weighted flow BC on demos
 * and the policy's own rollouts with the config's offline.* fields, pause points after every
 * step, `npm run eval`'s evaluation at the start, every offline.eval_every steps and at the end,
 * and the result as `.flowtune` contents of stage `offline`. `npm run offline` and the studio's
 * demos tab are hosts of this.
 */
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { bundleContents, bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import { withStageSettings, type ConfigKey, type ConfigValue, type RunConfig, type RunOverrides } from '../config';
import { firstDemoEpisodes } from '../envs/demo-format';
import { ConfigError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import { assertDemosFit } from '../offline/demos-fit';
import { runOfflineStage, type OfflineStageReport } from '../offline/offline-stage';
import { openCheckpoint } from './open-checkpoint';
import type { StageDemos } from './pretrain-stage';
import { runEnvConfig } from './run-env-config';
import { evaluateStage, isStageEvalStep, stageLogEvery, type StageEval, type StagePorts } from './stage-ports';

type StageSettingValues = { readonly [K in ConfigKey]?: ConfigValue<K> };

export interface OfflineStageInput {
  /** The stage-1 checkpoint to continue. */
  start: CheckpointFiles;
  /** The config before the checkpoint decides its fields; then `overrides` apply (a preset's first). */
  base: RunConfig;
  overrides?: readonly string[] | RunOverrides;
  /**
   * Stage fields set after the checkpoint's config is in force (the studio's form: offline.* and
   * eval_episodes), each checked by its own validator, as withStageSettings does.
   */
  settings?: StageSettingValues;
  demos: StageDemos;
  /** Progress carries the window's losses/weighted_bc and advantages/weight_* means. */
  ports: StagePorts<MetricRecord>;
}

export interface OfflineStageResult {
  /** Stage `offline`, at the stage-1 step count plus offline.steps, its last evaluation stored. */
  contents: FlowtuneContents;
  /** The config in force: the checkpoint's fields, then the overrides. */
  config: RunConfig;
  report: OfflineStageReport;
  /** The stage-1 policy's evaluation before anything trains; undefined with eval_episodes=0. */
  startEval?: StageEval;
  finalEval?: StageEval;
}

/** Continues the checkpoint's policy; refuses demos that do not fit its env, and rewards other than the demos' dense ones. */
export async function runOfflineStageRun(input: OfflineStageInput): Promise<OfflineStageResult> {
  const { ports } = input;
  const opened = openCheckpoint(input.start, input.base, input.overrides ?? []);
  const { checkpoint } = opened;
  if (checkpoint.kind !== 'flow') throw new ConfigError('policy.kind', `stage 2 (offline) fine-tunes flow policies; ${input.start.name} holds a ${checkpoint.kind} policy`);
  const config = input.settings ? withStageSettings(opened.config, 'offline', input.settings) : opened.config;
  assertDemosFit(input.demos.metadata, config, input.demos.source);
  // Demo files hold dense rewards; rollouts rewarded otherwise would not share their returns' scale.
  if (config.env.reward !== 'dense') throw new ConfigError('env.reward', `env.reward=${config.env.reward} cannot be used: the demos hold dense rewards, so stage 2 needs env.reward=dense`);
  const settings = config.offline;
  const demos = settings.episodes > 0 ? firstDemoEpisodes(input.demos.demos, settings.episodes) : input.demos.demos;
  const { bundle, metadata } = bundleFromCheckpoint(checkpoint, config.policy);
  const firstStep = metadata.training.step;
  const contentsAt = (step: number, evalSummary: StageEval | Record<string, never>) => bundleContents({ bundle, task: config.task, stage: 'offline', config, step, evalSummary });
  const clock = ports.clock ?? (() => performance.now());
  try {
    const startEval = config.eval_episodes > 0 ? await evaluateStage(bundle, config, ports, 0) : undefined;
    let finalEval: StageEval | undefined;
    const started = clock();
    const report = await runOfflineStage(bundle, demos, (numEnvs) => ports.openEnv({ ...runEnvConfig(config, 'train', false), numEnvs }, 'train'), config, {
      rollouts: settings.rollouts,
      rolloutSeed: settings.rollout_seed,
      critic: { hidden: settings.critic_hidden, steps: settings.critic_steps, batchSize: settings.critic_batch_size, learningRate: settings.critic_lr },
      criticFolds: settings.critic_folds,
      weighting: { beta: settings.beta, maxWeight: settings.w_max },
      bc: {
        steps: settings.steps, batchSize: settings.batch_size, learningRate: settings.lr, emaDecay: settings.ema,
        shortcutFraction: bundle.policy.options.shortcut ? settings.shortcut : 0, logEvery: stageLogEvery(settings.steps, ports),
      },
      seed: config.seed,
    }, {
      onPhase: (line) => ports.onPhase?.(line),
      onProgress: (step, record) => ports.onProgress?.(step, record, (clock() - started) / 1000),
      afterStep: async (step, averaged) => {
        if (isStageEvalStep(step, settings.steps, settings.eval_every, config)) finalEval = await averaged(() => evaluateStage(bundle, config, ports, step));
        await ports.afterStep?.(step, () => averaged(() => contentsAt(firstStep + step, {})));
      },
    });
    return { contents: await contentsAt(firstStep + settings.steps, finalEval ?? {}), config, report, startEval, finalEval };
  } finally {
    bundle.policy.dispose();
  }
}
