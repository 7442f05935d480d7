/**
 * The "New from demos" side of the trainer worker's surface (DESIGN.md §12, journey 7): record
 * scripted-expert demos in the env workers or load a `.demos` file, pretrain flow BC (stage 1),
 * optionally run advantage-weighted BC (stage 2); the result becomes the model of the next run.
 */
import type { ConfigKey, ConfigValue, EnvConfig, StageSection, TaskName } from '../core/config/run-config';

/** The demonstrations the studio holds for the current task. */
export interface DemoSetSummary {
  /** 'recorded', or the dropped file's name. */
  source: string;
  task: TaskName;
  obsType: EnvConfig['obs_type'];
  /** Point-cloud demos (either kind) only. */
  numPoints?: number;
  episodes: number;
  /** Control steps over all episodes. */
  steps: number;
  successes: number;
  /** Expert noise, when recorded here. */
  noise?: number;
}

export interface RecordDemosRequest {
  episodes: number;
  /** Expert action noise (the `npm run demos` noise). */
  noise: number;
  /** Episode e resets with seed + e (the `npm run demos` seed). */
  seed: number;
}

/** The config keys of one recipe stage's form: its section's fields (pretrain.*, offline.*) and eval_episodes. */
export type StageSettingKey<S extends StageSection> = Extract<ConfigKey, `${S}.${string}`> | 'eval_episodes';

/**
 * One stage's settings as config fields (e.g. `{ 'pretrain.steps': 1000, eval_episodes: 20 }`), set
 * over the studio's config for that stage only; the fields not given come from it.
 */
export type StageSettings<S extends StageSection> = { [K in StageSettingKey<S>]?: ConfigValue<K> };

/** Stage 1 (flow BC): pretrain.* fields and eval_episodes (0 = no evaluation). */
export type PretrainRequest = StageSettings<'pretrain'>;

/** Stage 2 (advantage-weighted BC): offline.* fields and eval_episodes (0 = no evaluation). */
export type OfflineRequest = StageSettings<'offline'>;

export type RecipeStage = 'record' | 'pretrain' | 'offline';

/** idle: nothing started; running; paused (pretrain/offline only); done; stopped (recording cancelled, or a paused stage discarded); error. */
export type RecipePhase = 'idle' | 'running' | 'paused' | 'done' | 'stopped' | 'error';

export interface RecipeStatus {
  /** The stage running, paused or last ended; undefined before any. */
  stage?: RecipeStage;
  phase: RecipePhase;
  /** Episodes recorded, or gradient steps taken, of `total`. */
  done: number;
  total: number;
  /** One line: the stage's current step, or the error sentence. */
  message?: string;
  demos?: DemoSetSummary;
  /** The newest policy the stages made: 'bc' after pretraining, 'offline' after stage 2. */
  policyStage?: 'bc' | 'offline';
}

/** One point of a stage's live charts. */
export interface RecipePoint {
  stage: 'pretrain' | 'offline';
  step: number;
  /** Mean (weighted) BC loss since the previous point; absent on eval-only points. */
  loss?: number;
  /** Deterministic evaluation success at this step, when one ran. */
  evalSuccess?: number;
}

/** An exported file: a `.demos` or a stage's `.flowtune`. */
export interface RecipeFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * Another project's dataset dropped on the demos tab (DESIGN.md §18): a D4RL or robomimic HDF5,
 * or a ReinFlow/DPPO train.npz with its normalization.npz, converted for the selected task.
 */
export interface DatasetDrop {
  files: RecipeFile[];
  /** robomimic: the obs keys to concatenate, in order. */
  obsKeys?: string[];
  /** robomimic: a filter key under mask/ (train, valid, ...). */
  filter?: string;
}

/** What the trainer worker offers for the demos flow; all of it is refused while a run trains. */
export interface RecipeApi {
  /** Records expert episodes of the selected task in the env workers; null when cancelled (the held demos then stay). */
  recordDemos(request: RecordDemosRequest): Promise<DemoSetSummary | null>;
  /** Validates a `.demos` file for the selected task; a bad one throws DemosError (one sentence) and the held demos stay. */
  loadDemos(file: RecipeFile): Promise<DemoSetSummary>;
  /** Converts a dataset for the selected task; a bad one throws DemosError (one sentence) and the held demos stay. */
  importDataset(drop: DatasetDrop): Promise<DemoSetSummary>;
  /** The held demos as a `.demos` file. */
  exportDemos(): Promise<RecipeFile>;
  /** Stage 1 on the held demos with the config's policy; resolves when it finishes, pauses or fails. The result becomes the selected model. */
  startPretrain(request: PretrainRequest): Promise<void>;
  /** Stage 2 from the stage-1 policy; resolves when it finishes, pauses or fails. The result becomes the selected model. */
  startOffline(request: OfflineRequest): Promise<void>;
  /** Pauses pretraining or stage 2 after its current step; cancels a recording after its current episodes (nothing recorded is kept). */
  pauseRecipe(): Promise<void>;
  /** Continues a paused stage; resolves like the start call. */
  resumeRecipe(): Promise<void>;
  /** Ends a paused stage without a result; the model stays as it was. Starting a stage also discards a paused one. */
  discardRecipe(): Promise<void>;
  /** The stage's policy as it is now (its averaged weights) as a `.flowtune`; while paused or done. */
  exportRecipePolicy(): Promise<RecipeFile>;
  recipeStatus(): Promise<RecipeStatus>;
}
