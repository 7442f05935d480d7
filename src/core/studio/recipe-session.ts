/**
 * The studio's "New from demos" flow (DESIGN.md §12, journey 7), hosted in the trainer worker:
 * demos recorded in sharded envs or read from a `.demos` file, then core/run's stage 1 and stage 2
 * on them, each pausable and exportable. This is the studio's side of the stages: events, pause
 * and discard, and handing a finished stage's policy to the session as the selected model, so
 * Train fine-tunes it with PPO. Stage 1's observation follows the demos, as on the command line.
 */
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { cloneConfig, withStageSettings } from '../config';
import { pretrainConfigForDemos } from '../config/pretrain-demos';
import type { RunConfig } from '../config/run-config';
import { writeDemoFile } from '../envs/demo-format';
import { DemosError, TrainingError } from '../errors';
import { assertDemosFit } from '../offline/demos-fit';
import { runOfflineStageRun } from '../run/offline-stage-run';
import { runPretrainStage } from '../run/pretrain-stage';
import type { StagePorts } from '../run/stage-ports';
import type { MetricRecord } from '../metrics/metric-keys';
import type {
  CheckpointFiles, DatasetDrop, DemoSetSummary, OfflineRequest, PretrainRequest, RecipeFile, RecipeStatus, RecordDemosRequest, TrainerEvent,
} from '../../protocol/trainer-api';
import { importDatasetUpload, readDemosUpload, recordDemos, stageDemos, type HeldDemos, type RecordingEnvs } from './held-demos';
import { RecipeBoard, STAGE_LABEL, stageEvents, type TrainingStage } from './recipe-board';
import { checkRecordRequest } from './record-request';
import { StageDiscarded, StagePause } from './stage-pause';

export type { OpenShardedEnv } from './held-demos';

/** What the demos flow reads of the trainer's session, and the model hand-over. */
export interface RecipeSessionView {
  readonly config: RunConfig;
  readonly phase: string;
  readonly hasRun: boolean;
  /** Opens a finished stage's policy as the next run's model (validated as a dropped checkpoint is). */
  readonly models: { loadCheckpoint(files: CheckpointFiles): unknown };
}

/** A stage's result, kept so it can be exported and stage 2 can start from stage 1's. */
interface StageResult {
  stage: 'bc' | 'offline';
  file: RecipeFile;
}

export class RecipeSession {
  private held?: HeldDemos;
  private result?: StageResult;
  private readonly board: RecipeBoard;
  /** Stage 2 always starts from stage 1's policy, also when it runs again. */
  private stage1?: StageResult;
  private readonly pause = new StagePause();
  private cancelRecording = false;
  /** The stage loop in flight (running or parked), so a new stage can wait for a discarded one to unwind. */
  private stageLoop?: Promise<void>;
  /** While a stage is parked: its policy with the averaged weights, as a file. */
  private exportParked?: () => Promise<RecipeFile>;

  /** `envs` open sharded envs: Web Workers in the studio, worker_threads in Node. */
  constructor(
    private readonly session: RecipeSessionView,
    emit: (event: TrainerEvent) => void,
    private readonly envs: RecordingEnvs,
  ) {
    this.board = new RecipeBoard(emit, () => ({ ...(this.held ? { demos: this.held.summary } : {}), ...(this.result ? { policyStage: this.result.stage } : {}) }));
  }

  /** Why a run cannot start now; undefined when it can (the session asks before every Train). */
  blocksTraining(): string | undefined {
    return this.board.current.phase === 'running' ? `the demos flow is ${this.activity()}: pause it or let it finish before training` : undefined;
  }

  status(): RecipeStatus {
    return this.board.status();
  }

  async recordDemos(request: RecordDemosRequest): Promise<DemoSetSummary | null> {
    this.assertFree();
    checkRecordRequest(request);
    const config = cloneConfig(this.session.config);
    this.cancelRecording = false;
    this.board.update({ stage: 'record', phase: 'running', done: 0, total: request.episodes, message: `recording ${request.episodes} ${config.task} episodes` });
    try {
      const recorded = await recordDemos(config, request, this.envs, {
        shouldStop: () => this.cancelRecording,
        onProgress: (episodes, successes) => this.board.update({ done: episodes, message: `recorded ${episodes} / ${request.episodes} episodes, ${successes} succeeded` }),
      });
      if (!recorded) {
        this.board.update({ phase: 'stopped', message: `recording cancelled; ${this.held ? 'the demos held before stay' : 'no demos are held'}` });
        return null;
      }
      this.held = recorded;
      this.board.update({ phase: 'done', message: `recorded ${recorded.metadata.episodes} episodes, ${recorded.summary.successes} succeeded` });
      return recorded.summary;
    } catch (error) {
      this.board.update({ phase: 'error', message: `recording failed: ${(error as Error).message}` });
      throw error;
    }
  }

  /** Reads and checks a `.demos` file completely before it replaces the held demos. */
  loadDemos(file: RecipeFile): DemoSetSummary {
    this.assertFree();
    this.held = readDemosUpload(file, this.session.config);
    const { episodes } = this.held.metadata;
    this.board.update({ stage: 'record', phase: 'done', done: episodes, total: episodes, message: `loaded ${file.name}: ${episodes} episodes` });
    return this.held.summary;
  }

  /** Converts a dropped dataset completely before it replaces the held demos; the status line says what was read. */
  async importDataset(drop: DatasetDrop): Promise<DemoSetSummary> {
    this.assertFree();
    const { line, ...held } = await importDatasetUpload(drop, this.session.config);
    this.assertFree();
    this.held = held;
    const { episodes } = held.metadata;
    this.board.update({ stage: 'record', phase: 'done', done: episodes, total: episodes, message: `converted ${line}` });
    return held.summary;
  }

  exportDemos(): RecipeFile {
    if (!this.held) throw new DemosError('there are no demos to export: record some or drop a .demos file first');
    return { name: `${this.held.demos.task}.demos`, bytes: writeDemoFile(this.held.demos, this.held.metadata) };
  }

  /**
   * Stage 1 with the form's pretrain.* fields over the Config tab's config, in the observation the
   * demos hold (the form sets no env.* key, so none is pinned); a paused stage is discarded first.
   */
  async startPretrain(request: PretrainRequest): Promise<void> {
    this.assertNotRunning();
    const settings = withStageSettings(cloneConfig(this.session.config), 'pretrain', request);
    const held = this.heldDemos();
    const config = pretrainConfigForDemos(settings, held.metadata);
    assertDemosFit(held.metadata, config, 'the held demos');
    if (this.pause.paused) await this.discardParked();
    const settled = this.pause.untilSettled();
    this.board.restartCharts('pretrain');
    const { task } = config;
    this.stageLoop = this.runStage('pretrain', config.pretrain.steps, async () => {
      const { contents } = await runPretrainStage({ config, demos: stageDemos(held), ports: this.stagePorts<number>('pretrain', config.pretrain.steps, (loss) => loss, (step) => `${task}-demos-bc-step${step}.flowtune`) });
      return { stage: 'bc', file: fileOf(`${task}-demos-bc.flowtune`, contents) };
    });
    return settled;
  }

  /** Stage 2 from stage 1's policy with the form's offline.* fields; a paused stage is discarded first. */
  async startOffline(request: OfflineRequest): Promise<void> {
    this.assertNotRunning();
    const base = cloneConfig(this.session.config);
    const steps = withStageSettings(base, 'offline', request).offline.steps;
    const held = this.usableDemos();
    const start = this.stage1;
    if (!start) throw new TrainingError('stage 2 starts from a stage-1 policy: pretrain one first');
    if (this.pause.paused) await this.discardParked();
    const settled = this.pause.untilSettled();
    this.board.restartCharts('offline');
    const { task } = base;
    this.stageLoop = this.runStage('offline', steps, async () => {
      const { contents } = await runOfflineStageRun({
        start: { kind: 'flowtune', name: start.file.name, bytes: start.file.bytes }, base, settings: request, demos: stageDemos(held),
        ports: this.stagePorts<MetricRecord>('offline', steps, (record) => record['losses/weighted_bc'], (step) => `${task}-demos-offline-step${step}.flowtune`),
      });
      return { stage: 'offline', file: fileOf(`${task}-demos-offline.flowtune`, contents) };
    });
    return settled;
  }

  async pauseRecipe(): Promise<void> {
    if (this.board.current.phase !== 'running') return;
    if (this.board.current.stage === 'record') this.cancelRecording = true;
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
    const stage = STAGE_LABEL[this.board.current.stage === 'offline' ? 'offline' : 'pretrain'];
    await this.discardParked();
    this.board.update({ phase: 'stopped', message: `${stage} discarded at step ${this.board.current.done} / ${this.board.current.total}; the model is unchanged` });
  }

  async exportRecipePolicy(): Promise<RecipeFile> {
    if (this.pause.paused && this.exportParked) return this.exportParked();
    if (this.board.current.phase === 'running') throw new TrainingError(`the demos flow is ${this.activity()}: pause it to export its policy`);
    if (!this.result) throw new TrainingError('no policy was made from demos yet: pretrain one first');
    return this.result.file;
  }

  private async runStage(stage: TrainingStage, steps: number, body: () => Promise<StageResult>): Promise<void> {
    this.board.update({ stage, phase: 'running', done: 0, total: steps, message: `${stage === 'pretrain' ? 'stage 1: BC pretraining' : 'stage 2: advantage-weighted BC'} starting` });
    try {
      const result = await body();
      this.result = result;
      if (result.stage === 'bc') this.stage1 = result;
      // Validated like a dropped checkpoint; it is the model the next run starts from.
      this.session.models.loadCheckpoint({ kind: 'flowtune', name: result.file.name, bytes: result.file.bytes });
      const what = result.stage === 'bc' ? 'The BC policy' : 'The stage-2 policy';
      const next = this.session.hasRun ? 'is the model of the next run: it applies after Reset' : 'is now the model: press Train to fine-tune it with PPO';
      this.board.update({ phase: 'done', done: steps, message: `${what} ${next}` });
      this.pause.settle();
    } catch (error) {
      // A discarded stage ends quietly: the stage replacing it reports from here on.
      if (error instanceof StageDiscarded) return;
      this.board.update({ phase: 'error', message: `${stage === 'pretrain' ? 'pretraining' : 'stage 2'} failed: ${(error as Error).message}` });
      this.pause.settle(error as Error);
    } finally {
      this.exportParked = undefined;
    }
  }

  /** A stage's hooks as studio events; `parkedName` names its policy exported while paused. */
  private stagePorts<P>(stage: TrainingStage, total: number, lossOf: (progress: P) => number | undefined, parkedName: (step: number) => string): StagePorts<P> {
    return stageEvents(this.board, {
      stage, total, lossOf, openEnv: (config) => this.envs.openEnv(config),
      park: (exportNow, step) => this.parkIfAsked(async () => fileOf(parkedName(step), await exportNow())),
    });
  }

  /** Parks the stage when a pause was asked for, offering its policy for export meanwhile. */
  private async parkIfAsked(exportNow: () => Promise<RecipeFile>): Promise<void> {
    await this.pause.checkpoint(() => {
      this.exportParked = exportNow;
      this.board.update({ phase: 'paused', message: `paused at step ${this.board.current.done} / ${this.board.current.total}: Resume goes on, Export saves the policy as it is` });
    }, () => {
      this.exportParked = undefined;
      this.board.update({ phase: 'running' });
    });
  }

  private heldDemos(): HeldDemos {
    if (!this.held) throw new DemosError('there are no demos yet: record some or drop a .demos file');
    return this.held;
  }

  /** The held demos for stage 2, refused early when the Config tab's env (stage 1's policy's) no longer fits them. */
  private usableDemos(): HeldDemos {
    const held = this.heldDemos();
    assertDemosFit(held.metadata, this.session.config, 'the held demos');
    return held;
  }

  /** Recording and loading wait for a paused stage to be resumed or discarded. */
  private assertFree(): void {
    if (this.pause.paused) throw new TrainingError(`the demos flow is ${this.activity()}: resume or discard it first`);
    this.assertNotRunning();
  }

  private assertNotRunning(): void {
    if (this.board.current.phase === 'running') throw new TrainingError(`the demos flow is ${this.activity()}: wait for it, or pause or cancel it first`);
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
    if (this.pause.paused) return `paused in ${this.board.current.stage === 'offline' ? 'stage 2' : 'stage 1'}`;
    return this.board.current.stage === 'record' ? 'recording demos' : this.board.current.stage === 'offline' ? 'running stage 2' : 'pretraining';
  }
}

function fileOf(name: string, contents: FlowtuneContents): RecipeFile {
  return { name, bytes: encodeFlowtune(contents) };
}
