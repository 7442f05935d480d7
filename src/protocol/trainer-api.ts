import type { AdapterSummary, BackendName } from '../core/backend/choose-backend';
import type { NoiseConfig, RunConfig, TaskName } from '../core/config/run-config';
import type { MetricRecord } from '../core/metrics/metric-keys';
import type { EpisodePoses, SceneVisual } from '../core/render/scene-visual';
import type { RecipeApi, RecipePoint, RecipeStatus } from './recipe-api';
import type { DroppedFile, ImportedSweep, ImportResult, QueueRequest, QueueStatus, RunDetails, RunListing } from './runs-api';

export type * from './runs-api';
export type * from './recipe-api';

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
}

export interface TrainerInitOptions {
  backend?: BackendName;
  /** Enables the fault-injection hooks (test builds only). */
  faults?: boolean;
}

/** A one-off sample from a small freshly initialized policy: proves the backend computes. */
export interface ProbeSampleResult {
  /** [B, H, A] */
  shape: [number, number, number];
  actions: Float32Array;
  allFinite: boolean;
  backend: BackendName;
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
}

/** A model: a checkpoint, or a freshly initialized policy. */
export type ModelSource = { kind: 'checkpoint'; info: CheckpointInfo } | { kind: 'fresh'; reason: string };

/** A checkpoint handed to the worker: a .flowtune file, or a tfjs model.json with its weight files. */
export type CheckpointFiles =
  | { kind: 'flowtune'; name: string; bytes: Uint8Array }
  | { kind: 'tfjs'; name: string; modelJson: string; weights: Uint8Array };

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
}

/** Deterministic eval-mode actions of a model on the observation of one env reset. */
export interface ActionProbe {
  /** Which model was probed. */
  model: 'run' | 'selected';
  seed: number;
  /** [H × A] */
  actions: Float32Array;
}

/** A checkpoint the trainer accepted: what it holds, and whether it waits for Reset because a run exists. */
export interface LoadedCheckpoint {
  info: CheckpointInfo;
  afterReset: boolean;
}

/** Exported files of the model in use. */
export interface ModelExport {
  flowtune: Uint8Array;
  modelJson: string;
  weightsBin: Uint8Array;
  baseName: string;
}

/** The observation, x_0 and live-policy actions an ONNX export is checked on in the page (row-major float32). */
export interface OnnxCheckInputs {
  /** [1, n_obs_steps, obs_dim], env units. */
  obs: Float32Array;
  obsShape: [number, number, number];
  /** [1, H, A] */
  x0: Float32Array;
  x0Shape: [number, number, number];
  /** [1, n_action_steps, A_env]: the tfjs policy's deterministic ODE actions, env units. */
  actions: Float32Array;
  /** The run's newest rollout observation of env 0, or a seeded reset's when there is no rollout yet. */
  obsSource: 'rollout' | 'reset';
}

/** The model in use as one ONNX graph of its deterministic policy (DESIGN.md §6 "ONNX"). */
export interface OnnxExport {
  name: string;
  bytes: Uint8Array;
  /** The run's model, or the selected checkpoint's when there is no run. */
  model: 'run' | 'selected';
  check: OnnxCheckInputs;
}

export type FaultKind = 'trainer-throw' | 'env-crash' | 'nonfinite-updates';

/** Which chains to sample for the chain view. */
export interface ChainSampleRequest {
  /** The env whose current observation conditions the chains (default 0). */
  envIndex?: number;
  /** Chains M (default 16). */
  count?: number;
  /** Seeds x_0 (shared by all M chains) and the step noise (default 0). */
  seed?: number;
  /** When set, the observation at control step `step` of this stored episode conditions the chains instead of an env's. */
  episode?: EpisodeStep;
}

/** One recorded step of a stored episode: step 0 is the obs after reset, step `length` the final obs. */
export interface EpisodeStep {
  id: string;
  step: number;
}

/**
 * M chains of the current policy from one shared x_0 under the noise settings in force
 * (DESIGN.md §3), plus the all-ODE chain from the same x_0. Row-major float32.
 */
export interface ChainSample {
  count: number;
  /** K */
  steps: number;
  /** H */
  horizon: number;
  /** A */
  actionDim: number;
  /** The first n_action_steps positions of the chunk are executed. */
  nActionSteps: number;
  /** [M, K+1, H, A], normalized action units. */
  chains: Float32Array;
  /** [K+1, H, A]: method ode, mode eval, from chain 0's x_0. */
  odeChain: Float32Array;
  /** [M, K]: 1 where step k of chain m was stochastic. */
  denoiseInds: Float32Array;
  /** [M, K, H, A]: the step mean μ_k of each chain. */
  means: Float32Array;
  /** [M, K, H, A]: the std applied at step k, 0 on ODE steps. */
  stds: Float32Array;
  method: string;
  mode: string;
  level: number;
  envIndex: number;
  /** Where the observation came from: the live rollout, a seeded reset, or a stored episode. */
  obsSource: 'rollout' | 'reset' | 'episode';
  /** The episode step that conditioned the chains, when obsSource is 'episode'. */
  episode?: EpisodeStep;
  /** The weights used: the run's, the selected checkpoint's, or a fresh policy's. */
  model: 'run' | 'selected' | 'fresh';
}

/** One recorded episode in the trainer worker's store (DESIGN.md §1 journey 4). */
export interface EpisodeSummary {
  /** Unique within the worker's lifetime, e.g. "eval-12-3". */
  id: string;
  source: 'train' | 'eval';
  task: TaskName;
  /** The iteration that finished it (1-based, as in progress/iteration). */
  iteration: number;
  envIndex: number;
  seed: number;
  episodeReturn: number;
  /** Control steps. */
  length: number;
  success: boolean;
}

/** What a renderer needs to replay one episode; poses are transferred. */
export interface EpisodeReplay {
  summary: EpisodeSummary;
  visual: SceneVisual;
  poses: EpisodePoses;
}

/**
 * TCP paths implied by M sampled chunks (`ee_delta_pos` only): the chains of sampleChains for the
 * same request, their final chunks x_K unnormalized, and the TCP targets they lead to, drawn in the
 * scene of the env's observation.
 */
export interface ChainPaths {
  count: number;
  /** H */
  horizon: number;
  nActionSteps: number;
  envIndex: number;
  /** [M, H + 1, 3]: the observed TCP, then the target after each step of the chunk (m, world frame). */
  paths: Float32Array;
  /** [H + 1, 3]: the same for the deterministic ODE chunk. */
  odePath: Float32Array;
  visual: SceneVisual;
  /** One frame: the scene rebuilt from the observation. */
  poses: EpisodePoses;
  /** False when the scene has a cube the observation gives no pose for (point clouds): it is drawn at its home pose. */
  objectFromObservation: boolean;
  /** Point-cloud policies only: the newest frame's points and what the PointNet makes of them. */
  pointCloud?: PolicyPointCloud;
  /** Where the observation came from: the live rollout or a stored episode step. */
  obsSource: 'rollout' | 'episode';
  /** The episode step whose observation was used, when obsSource is 'episode'. */
  episode?: EpisodeStep;
}

/** The points of one observation frame as the policy sees them. */
export interface PolicyPointCloud {
  /** [N, 3] world frame (m), env units. */
  points: Float32Array;
  /** [N] the share of the PointNet's max-pool channels each point wins; sums to 1. */
  shares: Float32Array;
}

/** The scene of one training env as its newest rollout observation shows it, for the live view. */
export interface LiveFrame {
  envIndex: number;
  iteration: number;
  envSteps: number;
  visual: SceneVisual;
  /** One frame. */
  poses: EpisodePoses;
  /** False when the scene has a cube the observation gives no pose for (point clouds): it is drawn at its home pose. */
  objectFromObservation: boolean;
}

/** The trainer worker's comlink surface (DESIGN.md §2: the UI talks to workers through these types). */
export interface TrainerWorkerApi extends RecipeApi {
  init(options: TrainerInitOptions): Promise<BackendReport>;
  probeSample(seed: number): Promise<ProbeSampleResult>;
  /** Registers the page's event callback (a Comlink.proxy); the previous one is released. */
  subscribe(listener: (event: TrainerEvent) => void): Promise<void>;
  /** Sets the config for the next run; throws ConfigError (by name) on an invalid one. Noise fields also apply live. */
  setConfig(config: RunConfig): Promise<RunConfig>;
  /** Changes noise fields live: they apply from the next rollout. */
  setNoise(noise: Partial<NoiseConfig>): Promise<RunConfig>;
  /** Selects the task and its observation kind, and preselects the shipped checkpoint for both. */
  selectTask(task: TaskName, obsType: ObsType): Promise<ModelSource>;
  /**
   * Validates a checkpoint fully; on success it becomes the model of the next run. The current run is never touched:
   * while one exists, the file waits for Reset (afterReset). With no run, the studio takes the checkpoint's
   * observation kind (state or point cloud, and its point count).
   */
  loadCheckpoint(files: CheckpointFiles): Promise<LoadedCheckpoint>;
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
  exportModel(): Promise<ModelExport>;
  /** The run's policy (or the selected checkpoint's, with no run) as ONNX, with the inputs the page checks it on. */
  exportOnnx(): Promise<OnnxExport>;
  probeActions(model: 'run' | 'selected', seed: number): Promise<ActionProbe>;
  /** Samples chains for the chain view; waits for a running PPO update to end. */
  sampleChains(request: ChainSampleRequest): Promise<ChainSample>;
  /** Recorded episodes still in the store, oldest first. */
  listEpisodes(): Promise<EpisodeSummary[]>;
  /** Scene and per-frame geom poses of one stored episode; throws TrainingError for an unknown id. */
  episodeReplay(id: string): Promise<EpisodeReplay>;
  /** TCP paths of the chain view's chunks in a 3D view of the env (ee_delta_pos; a rollout observation, or the episode step the request names). */
  chainPaths(request: ChainSampleRequest): Promise<ChainPaths>;
  /** The newest rollout observation of env `envIndex` as a scene; null before the first rollout. Never waits for an update. */
  liveFrame(envIndex: number): Promise<LiveFrame | null>;
  /** Every kept run, newest first: the current one, past studio and queue runs, imported ones. */
  listRuns(): Promise<RunListing[]>;
  /** Config and metrics of the given runs, in the order asked; throws ImportError naming an unknown id. */
  runDetails(ids: string[]): Promise<RunDetails[]>;
  /** Forgets a kept run and its weights; the current run cannot be deleted (TrainingError). */
  deleteRun(id: string): Promise<void>;
  /** Imported sweeps, newest first. */
  listSweeps(): Promise<ImportedSweep[]>;
  /** Forgets an imported sweep and its runs. */
  deleteSweep(id: string): Promise<void>;
  /**
   * Keeps the run folders (metrics.jsonl + config.json) and sweep folders (summary.json, runs/<id>/)
   * among the dropped files. A folder that is neither, or a corrupt file, throws ImportError with
   * one sentence naming the file; nothing is kept then.
   */
  importFolder(files: DroppedFile[]): Promise<ImportResult>;
  /** Starts a queue of the preset's variants × seeds from the selected model and the config in force; refused while a run is active. */
  startQueue(request: QueueRequest): Promise<QueueStatus>;
  /** Stops the queue after pausing its run; the runs it finished stay in the list. */
  cancelQueue(): Promise<void>;
  /** The queue, or null. */
  queueStatus(): Promise<QueueStatus | null>;
  /** After a reload: restores the interrupted queue run from its autosave and trains on; null when no queue was running. */
  resumeQueue(): Promise<QueueStatus | null>;
  /** Test builds only. */
  injectFault(kind: FaultKind): Promise<void>;
}
