import type { AdapterSummary, BackendName } from '../core/backend/choose-backend';

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
}

/** A one-off sample from a small freshly initialized policy: proves the backend computes. */
export interface ProbeSampleResult {
  /** [B, H, A] */
  shape: [number, number, number];
  actions: Float32Array;
  allFinite: boolean;
  backend: BackendName;
}

/** The trainer worker's comlink surface (DESIGN.md §2: the UI talks to workers through these types). */
export interface TrainerWorkerApi {
  init(options: TrainerInitOptions): Promise<BackendReport>;
  probeSample(seed: number): Promise<ProbeSampleResult>;
}
