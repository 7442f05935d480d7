/**
 * The studio's "New from demos" flow (DESIGN.md §12, journey 7), hosted in the trainer worker:
 * demos recorded in the env workers or read from a `.demos` file, stage 1 (flow BC) and stage 2
 * (advantage-weighted BC) on them, each pausable and exportable. A finished stage's policy
 * becomes the selected model, so Train fine-tunes it with PPO.
 */
import { bundleContents } from '../../src/core/checkpoint/policy-checkpoint';
import { encodeFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { loadBundle } from '../../src/core/checkpoint/policy-checkpoint';
import type { RunConfig } from '../../src/core/config/run-config';
import { cloneConfig } from '../../src/core/config';
import { demoMetadataFor, readDemoFile, writeDemoFile, type DemoMetadata } from '../../src/core/envs/demo-format';
import type { Demonstrations } from '../../src/core/envs/expert-rollout';
import { observationSpec } from '../../src/core/envs/observation';
import { getTask } from '../../src/core/envs/registry';
import { DemosError, TrainingError } from '../../src/core/errors';
import { DEFAULT_ADVANTAGE_WEIGHTS } from '../../src/core/offline/advantage-weights';
import { demosEnvProblem } from '../../src/core/offline/demos-fit';
import { OFFLINE_STAGE_DEFAULTS, runOfflineStage } from '../../src/core/offline/offline-stage';
import { DEFAULT_CRITIC_OPTIONS } from '../../src/core/offline/value-critic';
import { FlowPolicy } from '../../src/core/policy/flow-policy';
import type { PolicyBundle } from '../../src/core/policy/policy-bundle';
import { buildBcDataset } from '../../src/core/rl/bc-dataset';
import { policyOptionsFromConfig } from '../../src/core/rl/policy-setup';
import { PRETRAIN_DEFAULTS, pretrainPolicy } from '../../src/core/rl/pretrain';
import { runEnvConfig } from '../../src/core/run/run-env-config';
import type {
  DemoSetSummary, OfflineRequest, PretrainRequest, RecipeFile, RecipePoint, RecipeStage, RecipeStatus, RecordDemosRequest, TrainerEvent,
} from '../../src/protocol/trainer-api';
import type { ShardedVectorEnv } from '../../src/core/envs/sharded-vector-env';
import type { VectorEnvConfig } from '../../src/core/envs/vector-env-config';
import { createBrowserVectorEnv, hardwareCores } from '../env-pool';
import { checkOfflineRequest, checkPretrainRequest, checkRecordRequest } from './recipe-requests';
import { StageDiscarded, StagePause } from './stage-pause';
import type { TrainingSession } from './training-session';
import { evaluateInWorkers, type StoredEval } from './worker-eval';

export type OpenShardedEnv = (config: VectorEnvConfig) => Promise<ShardedVectorEnv>;

interface HeldDemos {
  demos: Demonstrations;
  metadata: DemoMetadata;
  summary: DemoSetSummary;
}

/** A stage's result, kept so it can be exported and stage 2 can start from stage 1's. */
interface StageResult {
  stage: 'bc' | 'offline';
  file: RecipeFile;
}

function summaryOf(source: string, demos: Demonstrations, metadata: DemoMetadata, noise?: number): DemoSetSummary {
  return {
    source, task: demos.task, obsType: demos.obsMode, ...(demos.obsMode === 'pointcloud' ? { numPoints: (metadata.obs_slices.find((slice) => slice.name === 'points')?.dim ?? 0) / 3 } : {}),
    episodes: metadata.episodes, steps: metadata.steps, successes: demos.success.reduce((sum, flag) => sum + flag, 0), ...(noise !== undefined ? { noise } : {}),
  };
}

export class RecipeSession {
  private held?: HeldDemos;
  private state: RecipeStatus = { phase: 'idle', done: 0, total: 0 };
  private points: RecipePoint[] = [];
  private result?: StageResult;
  /** Stage 2 always starts from stage 1's policy, also when it runs again. */
  private stage1?: StageResult;
  private readonly pause = new StagePause();
  private cancelRecording = false;
  /** The stage loop in flight (running or parked), so a new stage can wait for a discarded one to unwind. */
  private stageLoop?: Promise<void>;
  /** While a stage is parked: its policy with the averaged weights, as a file. */
  private exportParked?: () => Promise<RecipeFile>;

  /** `openEnv` builds a sharded env: Web Workers in the studio, worker_threads in tests. */
  constructor(
    private readonly session: TrainingSession,
    private readonly emit: (event: TrainerEvent) => void,
    private readonly openEnv: OpenShardedEnv = createBrowserVectorEnv,
  ) {}

  /** Why a run cannot start now; undefined when it can (the session asks before every Train). */
  blocksTraining(): string | undefined {
    return this.state.phase === 'running' ? `the demos flow is ${this.activity()}: pause it or let it finish before training` : undefined;
  }

  status(): RecipeStatus {
    return { ...this.state, ...(this.held ? { demos: this.held.summary } : {}), ...(this.result ? { policyStage: this.result.stage } : {}) };
  }

  async recordDemos(request: RecordDemosRequest): Promise<DemoSetSummary | null> {
    this.assertFree();
    checkRecordRequest(request);
    const config = cloneConfig(this.session.config);
    const task = getTask(config.task);
    const numPoints = config.env.obs_type === 'pointcloud' ? config.env.num_points : undefined;
    this.cancelRecording = false;
    this.update({ stage: 'record', phase: 'running', done: 0, total: request.episodes, message: `recording ${request.episodes} ${config.task} episodes` });
    let env: ShardedVectorEnv | undefined;
    try {
      // One single-env shard per worker: each takes the next few episodes as it frees up.
      const workers = Math.max(1, Math.min(request.episodes, hardwareCores() - 1));
      env = await this.openEnv({ task: config.task, numEnvs: workers, obsMode: config.env.obs_type, numPoints, recordEpisodes: false });
      const seeds = Array.from({ length: request.episodes }, (_, episode) => request.seed + episode);
      const demos = await env.recordExpertDemos({
        seeds, noise: request.noise, episodesPerRequest: 2, shouldStop: () => this.cancelRecording,
        onProgress: (episodes, successes) => this.update({ done: episodes, message: `recorded ${episodes} / ${request.episodes} episodes, ${successes} succeeded` }),
      });
      if (!demos) {
        this.update({ phase: 'stopped', message: `recording cancelled; ${this.held ? 'the demos held before stay' : 'no demos are held'}` });
        return null;
      }
      const metadata = demoMetadataFor(demos, { seed: request.seed, noise: request.noise, obsSlices: observationSpec(task, config.env.obs_type, numPoints).slices, maxEpisodeSteps: task.maxEpisodeSteps });
      this.held = { demos, metadata, summary: summaryOf('recorded', demos, metadata, request.noise) };
      this.update({ phase: 'done', message: `recorded ${metadata.episodes} episodes, ${this.held.summary.successes} succeeded` });
      return this.held.summary;
    } catch (error) {
      this.update({ phase: 'error', message: `recording failed: ${(error as Error).message}` });
      throw error;
    } finally {
      await env?.dispose();
    }
  }

  /** Reads and checks a `.demos` file completely before it replaces the held demos. */
  loadDemos(file: RecipeFile): DemoSetSummary {
    this.assertFree();
    let read: { demos: Demonstrations; metadata: DemoMetadata };
    try {
      read = readDemoFile(file.bytes);
    } catch (error) {
      throw new DemosError(`${file.name} is not a valid .demos file: ${(error as Error).message}`);
    }
    const problem = demosEnvProblem(read.metadata, this.session.config);
    if (problem) throw new DemosError(`${file.name} cannot be used: ${problem}`);
    if (read.metadata.episodes === 0) throw new DemosError(`${file.name} holds no episodes`);
    this.held = { ...read, summary: summaryOf(file.name, read.demos, read.metadata, read.metadata.noise) };
    this.update({ stage: 'record', phase: 'done', done: read.metadata.episodes, total: read.metadata.episodes, message: `loaded ${file.name}: ${read.metadata.episodes} episodes` });
    return this.held.summary;
  }

  exportDemos(): RecipeFile {
    if (!this.held) throw new DemosError('there are no demos to export: record some or drop a .demos file first');
    return { name: `${this.held.demos.task}.demos`, bytes: writeDemoFile(this.held.demos, this.held.metadata) };
  }

  /** Stage 1; a paused stage is discarded first. */
  async startPretrain(request: PretrainRequest): Promise<void> {
    this.assertNotRunning();
    checkPretrainRequest(request);
    const held = this.usableDemos();
    if (this.pause.paused) await this.discardParked();
    const config = cloneConfig(this.session.config);
    const settled = this.pause.untilSettled();
    this.replacePoints([]);
    this.stageLoop = this.runStage('pretrain', request.steps, () => this.pretrain(held, config, request));
    return settled;
  }

  /** Stage 2 from stage 1's policy; a paused stage is discarded first. */
  async startOffline(request: OfflineRequest): Promise<void> {
    this.assertNotRunning();
    checkOfflineRequest(request);
    const held = this.usableDemos();
    const start = this.stage1;
    if (!start) throw new TrainingError('stage 2 starts from a stage-1 policy: pretrain one first');
    if (this.pause.paused) await this.discardParked();
    const config = cloneConfig(this.session.config);
    const settled = this.pause.untilSettled();
    this.replacePoints(this.points.filter((point) => point.stage === 'pretrain'));
    this.stageLoop = this.runStage('offline', request.steps, () => this.offline(held, start.file, config, request));
    return settled;
  }

  async pauseRecipe(): Promise<void> {
    if (this.state.phase !== 'running') return;
    if (this.state.stage === 'record') this.cancelRecording = true;
    else this.pause.request();
  }

  async resumeRecipe(): Promise<void> {
    if (!this.pause.paused) throw new TrainingError('nothing is paused in the demos flow');
    this.assertNoRun();
    return this.pause.resume();
  }

  /** Ends a paused stage without a result: the model and the earlier stages' results stay as they were. */
  async discardRecipe(): Promise<void> {
    if (!this.pause.paused) throw new TrainingError('nothing is paused in the demos flow');
    const stage = this.state.stage === 'offline' ? 'stage 2' : 'stage 1';
    if (this.pause.paused) await this.discardParked();
    this.update({ phase: 'stopped', message: `${stage} discarded at step ${this.state.done} / ${this.state.total}; the model is unchanged` });
  }

  async exportRecipePolicy(): Promise<RecipeFile> {
    if (this.pause.paused && this.exportParked) return this.exportParked();
    if (this.state.phase === 'running') throw new TrainingError(`the demos flow is ${this.activity()}: pause it to export its policy`);
    if (!this.result) throw new TrainingError('no policy was made from demos yet: pretrain one first');
    return this.result.file;
  }

  private async runStage(stage: Exclude<RecipeStage, 'record'>, steps: number, body: () => Promise<StageResult>): Promise<void> {
    this.update({ stage, phase: 'running', done: 0, total: steps, message: `${stage === 'pretrain' ? 'stage 1: BC pretraining' : 'stage 2: advantage-weighted BC'} starting` });
    try {
      const result = await body();
      this.result = result;
      if (result.stage === 'bc') this.stage1 = result;
      // Validated like a dropped checkpoint; it is the model the next run starts from.
      this.session.models.loadCheckpoint({ kind: 'flowtune', name: result.file.name, bytes: result.file.bytes });
      const what = result.stage === 'bc' ? 'The BC policy' : 'The stage-2 policy';
      const next = this.session.hasRun ? 'is the model of the next run: it applies after Reset' : 'is now the model: press Train to fine-tune it with PPO';
      this.update({ phase: 'done', done: steps, message: `${what} ${next}` });
      this.pause.settle();
    } catch (error) {
      // A discarded stage ends quietly: the stage replacing it reports from here on.
      if (error instanceof StageDiscarded) return;
      this.update({ phase: 'error', message: `${stage === 'pretrain' ? 'pretraining' : 'stage 2'} failed: ${(error as Error).message}` });
      this.pause.settle(error as Error);
    } finally {
      this.exportParked = undefined;
    }
  }

  private async pretrain(held: HeldDemos, config: RunConfig, request: PretrainRequest): Promise<StageResult> {
    const numPoints = config.env.obs_type === 'pointcloud' ? config.env.num_points : undefined;
    const dataset = buildBcDataset(held.demos, config.policy.n_obs_steps, config.policy.horizon, { numPoints });
    if (dataset.size === 0) throw new DemosError('the demos hold no successful episode to learn from');
    const policy = new FlowPolicy(policyOptionsFromConfig(config, held.demos.obsDim, held.demos.actionDim), config.seed);
    const bundle: PolicyBundle = { policy, obsNormalizer: dataset.obsNormalizer, actionNormalizer: dataset.actionNormalizer };
    try {
      let evalSummary: StoredEval | undefined;
      await pretrainPolicy(policy, dataset, {
        steps: request.steps, batchSize: request.batchSize, learningRate: request.learningRate, emaDecay: PRETRAIN_DEFAULTS.emaDecay,
        shortcutFraction: policy.options.shortcut ? PRETRAIN_DEFAULTS.shortcutFraction : 0, seed: config.seed, logEvery: logEvery(request.steps),
        onProgress: (step, loss) => this.addPoint({ stage: 'pretrain', step, loss }),
        afterStep: async (step, averaged) => {
          this.update({ done: step, message: `stage 1: step ${step} / ${request.steps}` });
          if (isEvalStep(step, request)) evalSummary = await averaged(() => this.evaluate('pretrain', step, bundle, config, request.evalEpisodes));
          await this.parkIfAsked(() => averaged(() => this.encode(bundle, config, 'bc', step, {}, `${config.task}-demos-bc-step${step}.flowtune`)));
        },
      });
      return { stage: 'bc', file: await this.encode(bundle, config, 'bc', request.steps, evalSummary ?? {}, `${config.task}-demos-bc.flowtune`) };
    } finally {
      policy.dispose();
    }
  }

  private async offline(held: HeldDemos, start: RecipeFile, config: RunConfig, request: OfflineRequest): Promise<StageResult> {
    const loaded = loadBundle(start.bytes, { expectedTask: config.task });
    const { bundle } = loaded;
    try {
      let evalSummary: StoredEval | undefined;
      const firstStep = loaded.metadata.training.step;
      await runOfflineStage(bundle, held.demos, (numEnvs) => this.openEnv({ ...runEnvConfig(config, 'train', false), numEnvs }), config, {
        rollouts: request.rollouts,
        rolloutSeed: OFFLINE_STAGE_DEFAULTS.rolloutSeed,
        critic: DEFAULT_CRITIC_OPTIONS,
        criticFolds: 1,
        weighting: { beta: request.beta, maxWeight: DEFAULT_ADVANTAGE_WEIGHTS.maxWeight },
        bc: {
          steps: request.steps, batchSize: OFFLINE_STAGE_DEFAULTS.batchSize, learningRate: OFFLINE_STAGE_DEFAULTS.lr, emaDecay: OFFLINE_STAGE_DEFAULTS.ema,
          shortcutFraction: bundle.policy.options.shortcut ? OFFLINE_STAGE_DEFAULTS.shortcut : 0, logEvery: logEvery(request.steps),
        },
        seed: config.seed,
      }, {
        onPhase: (line) => this.update({ message: `stage 2: ${line}` }),
        onProgress: (step, record) => this.addPoint({ stage: 'offline', step, loss: record['losses/weighted_bc'] }),
        afterStep: async (step, averaged) => {
          this.update({ done: step, message: `stage 2: step ${step} / ${request.steps}` });
          if (isEvalStep(step, request)) evalSummary = await averaged(() => this.evaluate('offline', step, bundle, config, request.evalEpisodes));
          await this.parkIfAsked(() => averaged(() => this.encode(bundle, config, 'offline', firstStep + step, {}, `${config.task}-demos-offline-step${step}.flowtune`)));
        },
      });
      return { stage: 'offline', file: await this.encode(bundle, config, 'offline', firstStep + request.steps, evalSummary ?? {}, `${config.task}-demos-offline.flowtune`) };
    } finally {
      bundle.policy.dispose();
    }
  }

  /** Parks the stage when a pause was asked for, offering its policy for export meanwhile. */
  private async parkIfAsked(exportNow: () => Promise<RecipeFile>): Promise<void> {
    await this.pause.checkpoint(() => {
      this.exportParked = exportNow;
      this.update({ phase: 'paused', message: `paused at step ${this.state.done} / ${this.state.total}: Resume goes on, Export saves the policy as it is` });
    }, () => {
      this.exportParked = undefined;
      this.update({ phase: 'running' });
    });
  }

  private async evaluate(stage: 'pretrain' | 'offline', step: number, bundle: PolicyBundle, config: RunConfig, episodes: number): Promise<StoredEval> {
    this.update({ message: `${stage === 'pretrain' ? 'stage 1' : 'stage 2'}: evaluating ${episodes} episodes at step ${step}` });
    const result = await evaluateInWorkers(bundle, config, episodes, this.openEnv);
    this.addPoint({ stage, step, evalSuccess: result.success_rate });
    return result;
  }

  private async encode(bundle: PolicyBundle, config: RunConfig, stage: 'bc' | 'offline', step: number, evalSummary: Record<string, number>, name: string): Promise<RecipeFile> {
    return { name, bytes: encodeFlowtune(await bundleContents({ bundle, task: config.task, stage, config, step, evalSummary })) };
  }

  private usableDemos(): HeldDemos {
    if (!this.held) throw new DemosError('there are no demos yet: record some or drop a .demos file');
    const problem = demosEnvProblem(this.held.metadata, this.session.config);
    if (problem) throw new DemosError(`the held demos cannot be used: ${problem}`);
    return this.held;
  }

  /** Recording and loading wait for a paused stage to be resumed or discarded. */
  private assertFree(): void {
    if (this.pause.paused) throw new TrainingError(`the demos flow is ${this.activity()}: resume or discard it first`);
    this.assertNotRunning();
  }

  private assertNotRunning(): void {
    if (this.state.phase === 'running') throw new TrainingError(`the demos flow is ${this.activity()}: wait for it, or pause or cancel it first`);
    this.assertNoRun();
  }

  private async discardParked(): Promise<void> {
    if (!this.pause.paused) return;
    this.pause.discard();
    await this.stageLoop;
  }

  private assertNoRun(): void {
    const phase = this.session.phase;
    if (phase === 'starting' || phase === 'running') throw new TrainingError('a run is training: pause or reset it before working on demos');
  }

  private activity(): string {
    if (this.pause.paused) return `paused in ${this.state.stage === 'offline' ? 'stage 2' : 'stage 1'}`;
    return this.state.stage === 'record' ? 'recording demos' : this.state.stage === 'offline' ? 'running stage 2' : 'pretraining';
  }

  private update(change: Partial<RecipeStatus>): void {
    this.state = { ...this.state, ...change };
    this.emit({ type: 'recipe', status: this.status() });
  }

  private addPoint(point: RecipePoint): void {
    this.points.push(point);
    this.emit({ type: 'recipe-point', point });
  }

  private replacePoints(points: RecipePoint[]): void {
    this.points = points;
    this.emit({ type: 'recipe-points', points: [...points] });
  }
}

/** About 50 chart points per stage. */
function logEvery(steps: number): number {
  return Math.max(1, Math.floor(steps / 50));
}

function isEvalStep(step: number, request: { steps: number; evalEvery: number; evalEpisodes: number }): boolean {
  if (request.evalEpisodes === 0) return false;
  return step === request.steps || (request.evalEvery > 0 && step % request.evalEvery === 0);
}
