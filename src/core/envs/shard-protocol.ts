/**
 * Messages between a sharded vector env (host) and its env shards (workers).
 * Numbers cross threads as Float32Arrays: transferred, or written into
 * SharedArrayBuffers when both sides can share memory (DESIGN.md §2, §5).
 */
import type { ImageLayout } from './task-types';
import type { VectorEnvSnapshot } from './vector-env';
import type { VectorEnvConfig } from './vector-env-config';

/** A message channel to one worker: worker_threads in Node, a Web Worker in the browser. */
export interface ShardPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onMessage(handler: (message: unknown) => void): void;
  /** Called if the worker dies; pending requests then fail instead of hanging. */
  onError?(handler: (error: Error) => void): void;
  terminate(): void | Promise<void>;
}

/** Shared output/input buffers of one shard; present only in shared-memory mode. */
export interface ShardSharedBuffers {
  /** Int32 [2]: [0] completed request id, [1] 1 if that request failed. */
  control: SharedArrayBuffer;
  /** Float32 [numEnvs × maxChunkSteps × actionDim] */
  actions: SharedArrayBuffer;
  maxChunkSteps: number;
  /** Float32 [numEnvs × obsDim] */
  obs: SharedArrayBuffer;
  finalObs: SharedArrayBuffer;
  /** Float32 [numEnvs × maxChunkSteps × obsDim] */
  stepObs: SharedArrayBuffer;
  /** Float32 [numEnvs] */
  reward: SharedArrayBuffer;
  /** Int32 [numEnvs] */
  steps: SharedArrayBuffer;
  /** Uint8 [numEnvs × 3]: terminated, truncated, success. */
  flags: SharedArrayBuffer;
  /** Image observations only: Uint8 [numEnvs × imageBytes], the images of obs and of finalObs. */
  images?: SharedArrayBuffer;
  finalImages?: SharedArrayBuffer;
}

/** What a shard says after init: its sizes, and the cameras its images show (names resolved against the scene). */
export interface ShardInitResult {
  obsDim: number;
  actionDim: number;
  imageSpec?: ImageLayout;
}

/** A reset's reply when results travel in messages. */
export interface ShardResetPayload {
  obs: Float32Array;
  /** Image observations only: [numEnvs × imageBytes] */
  images?: Uint8Array;
}

export type ShardRequest =
  | { type: 'init'; id: number; config: VectorEnvConfig; shared: ShardSharedBuffers | null }
  | { type: 'buffers'; id: number; shared: ShardSharedBuffers }
  | { type: 'reset'; id: number; seeds: number[] }
  | { type: 'step'; id: number; nSteps: number; gamma: number; actions: Float32Array | null }
  | { type: 'drain'; id: number }
  | { type: 'metrics'; id: number }
  | { type: 'snapshot'; id: number }
  | { type: 'restore'; id: number; snapshot: VectorEnvSnapshot }
  /** Runs the task's scripted expert for whole episodes on these reset seeds (its own single env); replies Demonstrations. */
  | { type: 'expert'; id: number; seeds: number[]; noise: number }
  | { type: 'dispose'; id: number };

export interface ShardStepPayload {
  obs: Float32Array;
  finalObs: Float32Array;
  /** [numEnvs × nSteps × obsDim] */
  stepObs: Float32Array;
  reward: Float32Array;
  steps: Int32Array;
  /** [numEnvs × 3]: terminated, truncated, success. */
  flags: Uint8Array;
  /** Image observations only: [numEnvs × imageBytes] the images of obs and of finalObs. */
  images?: Uint8Array;
  finalImages?: Uint8Array;
}

/** A named error after structured clone (DESIGN.md §9: branch on name). */
export interface ShardErrorPayload {
  name: string;
  message: string;
  envIndex?: number;
  field?: string;
}

export type ShardReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ShardErrorPayload };
