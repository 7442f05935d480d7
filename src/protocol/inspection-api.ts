/**
 * What the trainer worker shows of the policy and the envs (DESIGN.md §1 journey 4): chains, TCP
 * paths, the live frame, stored episodes and their replay, action probes. Types only.
 */
import type { EpisodePoses, SceneVisual } from '../core/render/scene-visual';
import type { BackendName } from '../core/backend/choose-backend';
import type { EnvConfig, TaskName } from '../core/config/run-config';

/** A one-off sample from a small freshly initialized policy: proves the backend computes. */
export interface ProbeSampleResult {
  /** [B, H, A] */
  shape: [number, number, number];
  actions: Float32Array;
  allFinite: boolean;
  backend: BackendName;
}

/** Deterministic eval-mode actions of a model on the observation of one env reset. */
export interface ActionProbe {
  /** Which model was probed. */
  model: 'run' | 'selected';
  seed: number;
  /** [H × A] */
  actions: Float32Array;
}

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
 * M chains of the current policy from one shared start under the settings in force, plus the
 * deterministic chain from the same start (DESIGN.md §3 for a flow policy, §17 for a diffusion
 * policy). Row-major float32, normalized action units. What every family's sample holds.
 */
interface ChainSampleBase {
  count: number;
  /** The chain's steps: K (flow), or L = T or the DDIM steps S (diffusion). */
  steps: number;
  /** H */
  horizon: number;
  /** A */
  actionDim: number;
  /** The first n_action_steps positions of the chunk are executed. */
  nActionSteps: number;
  /** [M, K+1, H, A]: each chain's elements, its start (x_0 of a flow, x_T of a diffusion policy) first. */
  chains: Float32Array;
  /**
   * [K+1, H, A]: the deterministic chain from the same start: a flow policy's ODE chain (method ode, mode eval), a
   * diffusion policy's DDIM (η = 0) or DDPM mean chain, as evaluation and the ONNX export run it.
   */
  odeChain: Float32Array;
  /** [M, K]: 1 where step k of chain m was stochastic. */
  denoiseInds: Float32Array;
  /** [M, K, H, A]: the step mean μ_k of each chain. */
  means: Float32Array;
  /** [M, K, H, A]: the std applied at step k, 0 on deterministic steps. */
  stds: Float32Array;
  envIndex: number;
  /** Where the observation came from: the live rollout, a seeded reset, or a stored episode. */
  obsSource: 'rollout' | 'reset' | 'episode';
  /** The episode step that conditioned the chains, when obsSource is 'episode'. */
  episode?: EpisodeStep;
  /** The weights used: the run's, the selected checkpoint's, or a fresh policy's. */
  model: 'run' | 'selected' | 'fresh';
  /**
   * An image policy's camera images that conditioned the chains (absent for other policies): the decision's
   * own, as the env rendered them (a live rollout or a reset), or a stored step's ray-cast again from its recorded pose.
   */
  cameraImages?: 'decision' | 'recorded-pose';
}

/** A flow policy's chains: x_k over k = 0..K under the noise method in force. */
export interface FlowChainSample extends ChainSampleBase {
  family: 'flow';
  method: string;
  mode: string;
  level: number;
}

/**
 * A diffusion policy's chains: x_t over the chain's timesteps, noisiest first. Element k < L of a chain is
 * the input x_t of step k (t = timesteps[k]); element L is the action. Every stochastic step's std is
 * max(its DDPM/DDIM std, dppo.min_sampling_std), the same for every chain and element.
 */
export interface DiffusionChainSample extends ChainSampleBase {
  family: 'diffusion';
  /** [L]: the timestep of each step: T−1 … 0 (DDPM) or the leading DDIM grid. */
  timesteps: number[];
  /** T, the DDPM steps the net was trained on. */
  denoiseSteps: number;
  /** S > 0: DDIM steps; 0: the DDPM chain. */
  ddimSteps: number;
  /** K': the last K' steps run the fine-tuned net, the earlier ones the frozen base net. */
  ftSteps: number;
  /** dppo.min_sampling_std in force: the floor of every stochastic step's std. */
  minSamplingStd: number;
}

export type ChainSample = FlowChainSample | DiffusionChainSample;

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
  /** What the policy observed; absent means state. */
  obsType?: EnvConfig['obs_type'];
}

/** What a renderer needs to replay one episode; poses are transferred. */
export interface EpisodeReplay {
  summary: EpisodeSummary;
  visual: SceneVisual;
  poses: EpisodePoses;
}

/**
 * End-effector paths implied by M sampled chunks (controls whose task's render hint gives an actionPath): the chains of sampleChains for the
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
  /** False when the scene has a cube the observation gives no pose for (point clouds). */
  objectFromObservation: boolean;
  /** Slots in visual.geoms of the loose objects the observation gives no pose for: views leave them out. */
  unposedGeoms: number[];
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

/** Which scene state a camera view shows: a frame of a stored episode, or a task's seeded reset. */
export type CameraSource =
  | { kind: 'episode'; id: string; step: number }
  | { kind: 'reset'; task: TaskName; seed: number };

/** Which camera to render, from which state (DESIGN.md §19). */
export interface CameraViewRequest {
  source: CameraSource;
  /** A camera of the task's scene; absent: its first. */
  camera?: string;
  /** Image side in pixels (default 64). */
  imageSize?: number;
}

/** One camera's image of a scene state, as a policy on that camera sees it; rgb and depth are transferred. */
export interface CameraView {
  task: TaskName;
  /** Every named camera of the task's scene, in declaration order; empty when it names none. */
  cameras: string[];
  source: CameraSource;
  /** The rendered camera and its image; absent when the scene has no camera. */
  image?: {
    camera: string;
    size: number;
    /** [size · size · 3] shaded colour, row-major from the top left. */
    rgb: Uint8Array;
    /** [size · size] z-depth in metres, 0 where the ray hit nothing. */
    depth: Float32Array;
  };
}

/** Looking inside the policy and the envs; never waits for a PPO update longer than one. */
export interface InspectionApi {
  probeSample(seed: number): Promise<ProbeSampleResult>;
  probeActions(model: 'run' | 'selected', seed: number): Promise<ActionProbe>;
  /** Samples chains for the chain view; waits for a running PPO update to end. */
  sampleChains(request: ChainSampleRequest): Promise<ChainSample>;
  /** Recorded episodes still in the store, oldest first. */
  listEpisodes(): Promise<EpisodeSummary[]>;
  /** Scene and per-frame geom poses of one stored episode; throws TrainingError for an unknown id. */
  episodeReplay(id: string): Promise<EpisodeReplay>;
  /** TCP paths of the chain view's chunks in a 3D view of the env (controls with an actionPath; a rollout observation, or the episode step the request names). */
  chainPaths(request: ChainSampleRequest): Promise<ChainPaths>;
  /** The newest rollout observation of env `envIndex` as a scene; null before the first rollout. Never waits for an update. */
  liveFrame(envIndex: number): Promise<LiveFrame | null>;
  /** A camera's rgb and depth images of a stored episode's frame or a task's seeded reset; never waits for an update. */
  cameraView(request: CameraViewRequest): Promise<CameraView>;
}
