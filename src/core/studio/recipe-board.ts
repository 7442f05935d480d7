/**
 * The demos flow's status line and chart points, mirrored to the page as trainer events, and a
 * stage's hooks (core/run StagePorts) turned into those events.
 */
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { VectorEnvConfig } from '../envs/vector-env-config';
import type { BatchEnv } from '../envs/batch-env';
import type { StagePorts } from '../run/stage-ports';
import type { RecipePoint, RecipeStage, RecipeStatus, TrainerEvent } from '../../protocol/trainer-api';

export type TrainingStage = Exclude<RecipeStage, 'record'>;

export const STAGE_LABEL: Record<TrainingStage, string> = { pretrain: 'stage 1', offline: 'stage 2' };

export class RecipeBoard {
  private state: RecipeStatus = { phase: 'idle', done: 0, total: 0 };
  private points: RecipePoint[] = [];

  /** `extras` adds what the session holds (the demos' summary, the newest policy's stage) to every status. */
  constructor(private readonly emit: (event: TrainerEvent) => void, private readonly extras: () => Partial<RecipeStatus>) {}

  /** The status as last updated, without the extras. */
  get current(): RecipeStatus {
    return this.state;
  }

  status(): RecipeStatus {
    return { ...this.state, ...this.extras() };
  }

  update(change: Partial<RecipeStatus>): void {
    this.state = { ...this.state, ...change };
    this.emit({ type: 'recipe', status: this.status() });
  }

  addPoint(point: RecipePoint): void {
    this.points.push(point);
    this.emit({ type: 'recipe-point', point });
  }

  /** Starts a stage's charts over: stage 2 keeps stage 1's points, stage 1 keeps none. */
  restartCharts(stage: TrainingStage): void {
    this.points = stage === 'offline' ? this.points.filter((point) => point.stage === 'pretrain') : [];
    this.emit({ type: 'recipe-points', points: [...this.points] });
  }
}

export interface StageEventOptions<P> {
  stage: TrainingStage;
  total: number;
  openEnv: (config: VectorEnvConfig) => Promise<BatchEnv>;
  /** The chart's loss from a progress report. */
  lossOf: (progress: P) => number | undefined;
  /** Awaited after every step with the stage's policy as it is: where the session parks a paused stage. */
  park: (exportNow: () => Promise<FlowtuneContents>, step: number) => Promise<void>;
}

/** A stage's hooks as studio events: chart points, the status line, and a pause after any step. */
export function stageEvents<P>(board: RecipeBoard, options: StageEventOptions<P>): StagePorts<P> {
  const { stage, total } = options;
  const label = STAGE_LABEL[stage];
  return {
    openEnv: (config) => options.openEnv(config),
    progressReports: 50,
    onPhase: (line) => board.update({ message: `${label}: ${line}` }),
    onProgress: (step, progress) => board.addPoint({ stage, step, loss: options.lossOf(progress) }),
    beforeEval: (step, episodes) => board.update({ message: `${label}: evaluating ${episodes} episodes at step ${step}` }),
    onEval: (step, summary) => board.addPoint({ stage, step, evalSuccess: summary.success_rate }),
    afterStep: async (step, exportNow) => {
      board.update({ done: step, message: `${label}: step ${step} / ${total}` });
      await options.park(exportNow, step);
    },
  };
}
