/**
 * Stage 1 of the recipe as a run kind (DESIGN.md §2 "One path for every host", §3 "Stage 1",
 * §12): flow-matching BC on demos with the config's pretrain.* fields, a fresh policy of the
 * config's architecture, pause points after every step, `npm run eval`'s evaluation every
 * pretrain.eval_every steps and at the end, and the result as `.flowtune` contents of stage `bc`;
 * for a host that keeps them, the state a stopped BC continues from every pretrain.save_every steps.
 * `npm run pretrain` and the studio's demos tab are hosts of this.
 */
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { decodeFlowtune } from '../checkpoint/flowtune-file';
import { bundleContents } from '../checkpoint/policy-checkpoint';
import type { RunConfig } from '../config/run-config';
import { firstDemoEpisodes, type DemoMetadata } from '../envs/demo-format';
import type { Demonstrations } from '../envs/expert-rollout';
import { hasPointCloud } from '../envs/task-types';
import { DemosError } from '../errors';
import { assertDemosFit } from '../offline/demos-fit';
import { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { buildBcDataset } from '../rl/bc-dataset';
import { taskHasSuccess } from '../rl/evaluate';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import { pretrainPolicy } from '../rl/pretrain';
import { bcDatasetDigest, pretrainResumeContents, readPretrainResume } from './pretrain-resume';
import { evaluateStage, isStageEvalStep, stageLogEvery, type StageEval, type StagePorts } from './stage-ports';

/** Demonstrations already read, with their metadata and a name for refusals ("demos file 'x.demos'"). */
export interface StageDemos {
  demos: Demonstrations;
  metadata: DemoMetadata;
  source: string;
}

export interface PretrainStageInput {
  /** The config in force: pretrain.*, eval_episodes, seed, the policy's architecture and the env the demos are for. */
  config: RunConfig;
  demos: StageDemos;
  /** Progress carries the mean flow-matching loss of the window. */
  ports: StagePorts<number>;
  /** A stopped BC's saved state (a file `saveResume` was given), continued exactly; `name` names it in messages. */
  resumeFrom?: { name: string; bytes: Uint8Array };
  /** Takes the state a stopped BC continues from, every pretrain.save_every steps before the last. */
  saveResume?(step: number, contents: FlowtuneContents): Promise<void>;
}

export interface PretrainStageResult {
  /** Stage `bc`, its last evaluation stored. */
  contents: FlowtuneContents;
  /** BC samples (observation history, action chunk) cut from the demos. */
  samples: number;
  /** The evaluation at the last step; undefined with eval_episodes=0. */
  finalEval?: StageEval;
}

/** Trains a new policy on the demos; throws DemosError when they do not fit the config's env, or hold no successful episode of a task with a success rule. */
export async function runPretrainStage({ config, demos: given, ports, resumeFrom, saveResume }: PretrainStageInput): Promise<PretrainStageResult> {
  assertDemosFit(given.metadata, config, given.source);
  const settings = config.pretrain;
  const demos = settings.episodes > 0 ? firstDemoEpisodes(given.demos, settings.episodes) : given.demos;
  // A task with a success rule clones its successful episodes; one measured by return (DESIGN.md §13)
  // has none, so every episode is the behaviour to clone, as BC on D4RL's datasets does.
  const includeFailures = !taskHasSuccess(config.task);
  if (!includeFailures && !demos.success.includes(1)) throw new DemosError(`${given.source} cannot be used: the demos hold no successful episode to learn from`);
  const numPoints = hasPointCloud(config.env.obs_type) ? config.env.num_points : undefined;
  const dataset = buildBcDataset(demos, config.policy.n_obs_steps, config.policy.horizon, { numPoints, includeFailures, obsClip: config.policy.obs_clip });
  ports.onPhase?.(`BC on ${dataset.size} samples from ${demos.success.length} episodes`);
  const policy = new FlowPolicy(policyOptionsFromConfig(config, demos.obsDim, demos.actionDim, demos.imageSpec?.cameras), config.seed);
  const bundle: PolicyBundle = { policy, obsNormalizer: dataset.obsNormalizer, actionNormalizer: dataset.actionNormalizer };
  const contentsAt = (step: number, evalSummary: StageEval | Record<string, never>) => bundleContents({ bundle, task: config.task, stage: 'bc', config, step, evalSummary });
  const clock = ports.clock ?? (() => performance.now());
  // Read only where a state is saved or read: it passes over every sample's bytes.
  let digest: string | undefined;
  const datasetDigest = () => (digest ??= bcDatasetDigest(dataset));
  try {
    const resume = resumeFrom && readPretrainResume(
      decodeFlowtune(resumeFrom.bytes, { expectedShapes: policy.shapes, expectedTask: config.task }), { config, datasetDigest: datasetDigest(), emaDecay: settings.ema }, resumeFrom.name);
    if (resume) {
      policy.setWeights(resume.weights);
      ports.onPhase?.(`continuing from step ${resume.state.step} of ${resumeFrom.name}`);
    }
    let finalEval: StageEval | undefined;
    const started = clock() - (resume?.elapsedSeconds ?? 0) * 1000;
    const seconds = () => (clock() - started) / 1000;
    await pretrainPolicy(policy, dataset, {
      steps: settings.steps, batchSize: settings.batch_size, learningRate: settings.lr, emaDecay: settings.ema,
      shortcutFraction: policy.options.shortcut ? settings.shortcut : 0, seed: config.seed, diffusionSteps: config.policy.denoise_steps, logEvery: stageLogEvery(settings.steps, ports),
      imageShift: config.policy.image_shift,
      resume: resume?.state,
      onProgress: (step, loss) => ports.onProgress?.(step, loss, seconds()),
      afterStep: async (step, averaged, state) => {
        if (isStageEvalStep(step, settings.steps, settings.eval_every, config)) finalEval = await averaged(() => evaluateStage(bundle, config, ports, step));
        if (saveResume && settings.save_every > 0 && step % settings.save_every === 0 && step < settings.steps) {
          await saveResume(step, await pretrainResumeContents({ bundle, config, state: await state(), elapsedSeconds: seconds(), datasetDigest: datasetDigest() }));
        }
        await ports.afterStep?.(step, () => averaged(() => contentsAt(step, {})));
      },
    });
    return { contents: await contentsAt(settings.steps, finalEval ?? {}), samples: dataset.size, finalEval };
  } finally {
    policy.dispose();
  }
}
