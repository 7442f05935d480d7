/**
 * The trainer worker's run control (DESIGN.md §2): the next run's config and model, the run's
 * lifecycle (train, pause, step, stop, reset, resume, rollback) and the events it sends. Types only.
 */
import type { BackendSpeed } from '../core/backend/backend-speed';
import type { AdapterSummary, BackendName } from '../core/backend/choose-backend';
import type { CheckpointFiles } from '../core/checkpoint/checkpoint-open';
import type { PeerFormat } from './export-api';
import type { PeerCheckpointFiles } from '../core/checkpoint/peers/reinflow-import';
import type { NoiseConfig, RunConfig, TaskName } from '../core/config/run-config';
import type { MetricRecord } from '../core/metrics/metric-keys';
import type { LiveSettings } from '../core/run/live-settings';
import type { EpisodeSummary } from './inspection-api';
import type { RecipePoint, RecipeStatus } from './recipe-api';
import type { QueueStatus, RunListing } from './runs-api';
import type { TaskEntry } from './tasks-api';

export type { CheckpointFiles } from '../core/checkpoint/checkpoint-open';
export type { LiveSettings } from '../core/run/live-settings';

/** A ReinFlow `.pt` dropped with its normalization.npz (and its run's Hydra config): the trainer converts it once into a `.flowtune`. */
export type PeerCheckpointDrop = { kind: 'reinflow' } & PeerCheckpointFiles;

/** What the Model panel hands the trainer: a checkpoint of ours, or a peer's to convert. */
export type DroppedCheckpoint = CheckpointFiles | PeerCheckpointDrop;

/** Which tfjs backend the trainer worker runs on, and why. */
export interface BackendReport {
  backend: BackendName;
  /** The WebGPU adapter, when the browser offers one. */
  adapter?: AdapterSummary;
  softwareAdapter: boolean;
  /** The backend the user forced with `?backend=`, if any. */
  forced?: BackendName;
  /** Backends tried before the one in use, with the reason each failed. */
  failures: { backend: BackendName; reason: string }[];
  /**
   * How the backend in use was picked: `measured` (timed on the selected model at the run's sizes,
   * core/backend's rule), `forced` with `?backend=`, `resumed` (the backend a resumed run was saved on),
   * or `preference` before any model was timed.
   */
  choice: 'measured' | 'forced' | 'resumed' | 'preference';
  /** The figures of the last timing, fastest first; empty before the first. */
  speeds: BackendSpeed[];
  /** The sizes they were timed at, e.g. "16 envs, minibatch 64". */
  timedAt?: string;
  /** True while the backends are being timed. */
  timing?: boolean;
  /** The figures are stubbed timings of a test build, not measured ones. */
  stubbed?: boolean;
}

export interface TrainerInitOptions {
  backend?: BackendName;
  /** Enables the fault-injection hooks (test builds only). */
  faults?: boolean;
  /**
   * Test builds only: timings used in place of measured ones, "webgpu:1/2,wasm:10/20" (ms per
   * decision / per gradient step), so an e2e test can make either backend win.
   */
  stubbedBackendTimings?: string;
}

/** What the env observes: the state vector, or a point cloud plus proprioception (config `env.obs_type`). */
export type ObsType = RunConfig['env']['obs_type'];

/** Where the run is: idle (no run), running, paused (between iterations), done, stopped, error. */
export type RunPhase = 'idle' | 'starting' | 'running' | 'paused' | 'done' | 'stopped' | 'error';

/** What a checkpoint file holds, shown before it is used. */
export interface CheckpointInfo {
  /** File name, or the shipped path. */
  source: string;
  task: string;
  stage: string;
  /** Optimizer steps recorded in the file. */
  step: number;
  iteration: number;
  envSteps: number;
  /** e.g. "state · MLP [32, 32] · H 4 · K 4 · obs 39 · act 4" or "point cloud 128 pts · DiT-X 64×2, 4 heads · H 8 · K 4 · act 4" */
  architecture: string;
  /** Eval metrics stored in the file, e.g. { success_rate: 0.8 }. */
  eval: Record<string, number>;
  hasOptimizerState: boolean;
  format: 'flowtune' | 'tfjs';
  /** The peer whose layout the policy has (ReinFlow's FlowMLP, DPPO's DiffusionMLP), so Export can write it as that peer's .pt; null for none. */
  peerLayout: PeerFormat | null;
}

/** A model: a checkpoint, or a freshly initialized policy. */
export type ModelSource = { kind: 'checkpoint'; info: CheckpointInfo } | { kind: 'fresh'; reason: string };

/** A snapshot of the run for the status bar and controls. */
export interface RunStatus {
  phase: RunPhase;
  task: TaskName;
  iteration: number;
  totalIterations: number;
  envSteps: number;
  totalEnvSteps: number;
  elapsedSeconds: number;
  /** Seconds left at the recent pace; undefined before the first iteration. */
  etaSeconds?: number;
  /** A one-line note, e.g. "paused at iteration 4" or the error sentence. */
  message?: string;
  /** Iteration of the newest autosave in this session. */
  savedIteration?: number;
  /** Env worker restarts after a crash in this run. */
  envRestarts: number;
  /** After repeated non-finite updates stopped the run: the autosaved iteration rollBack() returns to. */
  rollbackIteration?: number;
}

/** Events pushed to the page through one Comlink.proxy callback. */
export type TrainerEvent =
  | { type: 'status'; status: RunStatus }
  | { type: 'metrics'; record: MetricRecord }
  /** Replaces the page's history (run start, reset, resume). */
  | { type: 'history'; records: MetricRecord[] }
  | { type: 'config'; config: RunConfig }
  /** The tasks the trainer knows changed (one was added or removed). */
  | { type: 'tasks'; tasks: TaskEntry[] }
  /**
   * The model Train uses: the run's own while a run exists, else the one a new run starts from; and,
   * while a run exists, the model chosen since it started, which a run after Reset starts from.
   */
  | { type: 'model'; model: ModelSource; next?: ModelSource }
  /** The run a reload offered was resumed, kept in the Runs list or discarded: null, the offer is gone. */
  | { type: 'saved-run'; saved: SavedRunSummary | null }
  /** One sentence about what happened to a run (kept in the Runs list, resumed). */
  | { type: 'notice'; message: string }
  /**
   * The episodes one iteration finished (training, and eval when it evaluated), newest last, and the
   * ids of earlier episodes the worker's store let go of (its count limits and byte budget).
   */
  | { type: 'episodes'; episodes: EpisodeSummary[]; dropped: string[] }
  /** The run list changed (a run started, saved, finished, was deleted or imported). */
  | { type: 'runs'; runs: RunListing[] }
  /** The queue changed; null when there is none. */
  | { type: 'queue'; queue: QueueStatus | null }
  /** The demos flow's stage, progress and held demos changed. */
  | { type: 'recipe'; status: RecipeStatus }
  /** One new point of the demos flow's charts. */
  | { type: 'recipe-point'; point: RecipePoint }
  /** Replaces the demos flow's chart points (a stage started over). */
  | { type: 'recipe-points'; points: RecipePoint[] }
  /** The backend in use changed, or its timing started or ended. */
  | { type: 'backend'; report: BackendReport }
  | { type: 'error'; name: string; message: string };

/** An autosaved run in IndexedDB that can be resumed. */
export interface SavedRunSummary {
  /** Its name in the Runs list, when the save names it. */
  name?: string;
  task: string;
  iteration: number;
  envSteps: number;
  savedAt: number;
  records: number;
  /** The tfjs backend it trained on; a resume uses it again so the run continues bit-exact. Absent in older saves. */
  backend?: BackendName;
}

/** A checkpoint the trainer accepted: what it holds, and whether it waits for Reset because a run exists. */
export interface AcceptedCheckpoint {
  kind: 'accepted';
  info: CheckpointInfo;
  afterReset: boolean;
  /** A converted peer checkpoint's import notes: what was read and what was assumed, one line each. */
  notes?: string[];
}

/** A readable checkpoint for another task than the studio's: nothing changed, and the page can offer to switch the task. */
export interface CheckpointForOtherTask {
  kind: 'other-task';
  /** The file's name. */
  source: string;
  /** The task and observation kind the file was trained on. */
  task: TaskName;
  obsType: ObsType;
  /** The task the studio (and its run, if any) is set to. */
  studioTask: TaskName;
  /** Whether the studio knows the file's task (a task the user added and removed is not known). */
  known: boolean;
}

export type LoadedCheckpoint = AcceptedCheckpoint | CheckpointForOtherTask;

export type FaultKind = 'trainer-throw' | 'env-crash' | 'nonfinite-updates';

/** The next run, the run's lifecycle and its events. */
export interface RunControlApi {
  init(options: TrainerInitOptions): Promise<BackendReport>;
  /** Registers the page's event callback (a Comlink.proxy); the previous one is released. */
  subscribe(listener: (event: TrainerEvent) => void): Promise<void>;
  /** Sets the config for the next run; throws ConfigError (by name) on an invalid one. Noise fields also apply live. */
  setConfig(config: RunConfig): Promise<RunConfig>;
  /** Changes noise fields live: they apply from the next rollout. */
  setNoise(noise: Partial<NoiseConfig>): Promise<RunConfig>;
  /** Changes live fields (noise, a diffusion policy's dppo.min_sampling_std): they apply from the next rollout. */
  setLive(settings: LiveSettings): Promise<RunConfig>;
  /** Selects the task and its observation kind, and preselects the shipped checkpoint for both. */
  selectTask(task: TaskName, obsType: ObsType): Promise<ModelSource>;
  /**
   * Validates a checkpoint fully; on success it becomes the model of the next run. The current run is never touched:
   * while one exists, the file waits for Reset (afterReset). With no run, the studio takes the checkpoint's
   * observation kind (state or point cloud, and its point count). A peer's checkpoint is converted once into a
   * `.flowtune` (of the studio's task when its sizes fit) and goes on as that file.
   */
  loadCheckpoint(files: DroppedCheckpoint): Promise<LoadedCheckpoint>;
  /** Starts a run (or resumes a paused one). */
  train(): Promise<void>;
  pause(): Promise<void>;
  /** One iteration, then paused. */
  stepOnce(): Promise<void>;
  stop(): Promise<void>;
  /** Ends the run: it stays in the Runs list with its weights (resumable there), the page's charts clear; the selected model stays. */
  reset(): Promise<void>;
  status(): Promise<RunStatus>;
  /** The run a reload offers to resume (the one that was current when the page went away); null when none. */
  savedRun(): Promise<SavedRunSummary | null>;
  /** After repeated non-finite updates: back to this run's newest autosave with half the actor lr, paused. */
  rollBack(): Promise<void>;
  /** Restores the offered run at its saved iteration and trains on. */
  resumeSaved(): Promise<SavedRunSummary>;
  /** Withdraws the offer; the run stays in the Runs list with its weights. */
  keepSaved(): Promise<void>;
  /** Deletes the offered run: its weights, config and metrics. */
  discardSaved(): Promise<void>;
  /** Restores a kept run from its weights at its saved iteration and trains on; refused while a run exists. */
  resumeRun(id: string): Promise<void>;
  /** Test builds only. */
  injectFault(kind: FaultKind): Promise<void>;
}
