/**
 * A vector env sharded over workers behind one async interface, with the same
 * results as the single-thread VectorEnv for the same seeds and actions
 * (DESIGN.md §5). Envs are split into contiguous shards, one per worker. With
 * shared memory, actions and results live in SharedArrayBuffers and completion
 * is signalled through Atomics; otherwise arrays are transferred in messages.
 */
import { ConfigError, EnvError } from '../errors';
import { mergeDemonstrations, type Demonstrations, type ExpertRecording } from './expert-rollout';
import type { EpisodeRecord } from './task-env';
import type { VectorChunkResult, VectorEnvMetrics, VectorEnvSnapshot, VectorStepResult } from './vector-env';
import { checkChunkActions, checkSeeds, resolveVectorEnvConfig, type ResolvedVectorEnvConfig, type VectorEnvConfig } from './vector-env-config';
import type { BatchEnv } from './batch-env';
import type { ShardInitResult, ShardPort, ShardReply, ShardRequest, ShardResetPayload, ShardSharedBuffers, ShardStepPayload } from './shard-protocol';
import type { ImageLayout } from './task-types';
import { imageBytes } from './camera/image-layout';
import { rebuildShardError } from './shard-errors';
import { allocateShardBuffers } from './shard-buffers';

export interface ShardedVectorEnvOptions {
  /** Workers to use; default: hardware concurrency minus one, at least 1, at most numEnvs. */
  numWorkers?: number;
  hardwareConcurrency?: number;
  /** Use SharedArrayBuffer + Atomics; default: when SharedArrayBuffer and Atomics.waitAsync exist. */
  sharedMemory?: boolean;
  /** Longest chunk the shared action buffers hold before they are regrown. */
  maxChunkSteps?: number;
}

function addMetrics(sum: VectorEnvMetrics, part: VectorEnvMetrics): VectorEnvMetrics {
  return { clippedActions: sum.clippedActions + part.clippedActions, unstableResets: sum.unstableResets + part.unstableResets, envSteps: sum.envSteps + part.envSteps };
}

export function defaultWorkerCount(numEnvs: number, hardwareConcurrency: number): number {
  return Math.max(1, Math.min(numEnvs, hardwareConcurrency - 1));
}

interface Shard {
  port: ShardPort;
  envOffset: number;
  numEnvs: number;
  shared: ShardSharedBuffers | null;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
  failed?: Error;
}

export class ShardedVectorEnv implements BatchEnv {
  readonly config: ResolvedVectorEnvConfig;
  readonly numWorkers: number;
  readonly sharedMemory: boolean;
  private readonly shards: Shard[] = [];
  private nextId = 1;
  private maxChunkSteps: number;
  /** Image observations: the cameras the shards render (their names resolved by the first shard's scene). */
  private resolvedImageSpec?: ImageLayout;
  /** [numEnvs × imageBytes] the current observation's images, gathered from the shards' replies. */
  private currentImages = new Uint8Array(0);

  private constructor(config: VectorEnvConfig, options: ShardedVectorEnvOptions) {
    this.config = resolveVectorEnvConfig(config);
    const requested = options.numWorkers ?? defaultWorkerCount(config.numEnvs, options.hardwareConcurrency ?? 2);
    if (!Number.isInteger(requested) || requested < 1) throw new ConfigError('env_workers', `env_workers must be a positive integer, got ${requested}`);
    this.numWorkers = Math.min(requested, config.numEnvs);
    const canShare = typeof SharedArrayBuffer !== 'undefined' && typeof (Atomics as { waitAsync?: unknown }).waitAsync === 'function';
    this.sharedMemory = (options.sharedMemory ?? canShare) && canShare;
    this.maxChunkSteps = options.maxChunkSteps ?? 16;
  }

  /** Starts the workers (one port per shard) and builds every shard's env. */
  static async create(config: VectorEnvConfig, openPort: (shardIndex: number) => ShardPort, options: ShardedVectorEnvOptions = {}): Promise<ShardedVectorEnv> {
    const env = new ShardedVectorEnv(config, options);
    const base = Math.floor(config.numEnvs / env.numWorkers);
    const extra = config.numEnvs % env.numWorkers;
    let envOffset = 0;
    for (let shardIndex = 0; shardIndex < env.numWorkers; shardIndex++) {
      const numEnvs = base + (shardIndex < extra ? 1 : 0);
      const shard: Shard = { port: openPort(shardIndex), envOffset, numEnvs, shared: null, pending: new Map() };
      shard.port.onMessage((message) => env.onReply(shard, message as ShardReply));
      shard.port.onError?.((error) => {
        for (const waiter of shard.pending.values()) waiter.reject(new EnvError(`env worker ${shardIndex} failed: ${error.message}`));
        shard.pending.clear();
        shard.failed = error;
      });
      shard.shared = env.sharedMemory ? env.allocateShared(numEnvs) : null;
      env.shards.push(shard);
      envOffset += numEnvs;
    }
    try {
      const inits = (await Promise.all(env.shards.map((shard) => env.request(shard, { type: 'init', id: 0, config: { ...config, numEnvs: shard.numEnvs }, shared: shard.shared })))) as ShardInitResult[];
      env.resolvedImageSpec = inits[0].imageSpec;
      env.currentImages = new Uint8Array(config.numEnvs * env.imageBytes);
    } catch (error) {
      await env.dispose();
      throw error;
    }
    return env;
  }

  get numEnvs(): number {
    return this.config.numEnvs;
  }

  get obsDim(): number {
    return this.config.obsSpec.dim;
  }

  get actionDim(): number {
    return this.config.actionDim;
  }

  get imageSpec(): ImageLayout | undefined {
    return this.resolvedImageSpec;
  }

  /** Bytes of one env's images per observation (the layout asked for has as many cameras as the resolved one); 0 without images. */
  private get imageBytes(): number {
    return this.config.obsSpec.image ? imageBytes(this.config.obsSpec.image) : 0;
  }

  images(): Uint8Array {
    return this.currentImages.slice();
  }

  private allocateShared(numEnvs: number): ShardSharedBuffers {
    return allocateShardBuffers({ numEnvs, obsDim: this.obsDim, actionDim: this.actionDim, imageBytes: this.imageBytes, maxChunkSteps: this.maxChunkSteps });
  }

  private onReply(shard: Shard, reply: ShardReply): void {
    const waiter = shard.pending.get(reply.id);
    if (!waiter) return;
    shard.pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(rebuildShardError(reply.error, shard.envOffset));
  }

  /** Sends a request and waits for its reply message. */
  private request(shard: Shard, request: ShardRequest, transfer: Transferable[] = []): Promise<unknown> {
    if (shard.failed) return Promise.reject(new EnvError(`env worker failed earlier: ${shard.failed.message}`));
    const id = this.nextId++;
    const promise = new Promise<unknown>((resolve, reject) => shard.pending.set(id, { resolve, reject }));
    shard.port.postMessage({ ...request, id }, transfer);
    return promise;
  }

  /** Shared mode: sends a request whose result lands in shared memory, and waits on the control word. */
  private async requestShared(shard: Shard, request: ShardRequest): Promise<void> {
    if (shard.failed) throw new EnvError(`env worker failed earlier: ${shard.failed.message}`);
    const control = new Int32Array(shard.shared!.control);
    const id = this.nextId++;
    const failure = new Promise<unknown>((resolve, reject) => shard.pending.set(id, { resolve, reject }));
    failure.catch(() => undefined);
    shard.port.postMessage({ ...request, id });
    for (;;) {
      const seen = Atomics.load(control, 0);
      if (seen === id) break;
      // Wake at least every second so a dead worker surfaces as an error.
      const wait = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, t: number): { async: boolean; value: Promise<string> | string } }).waitAsync(control, 0, seen, 1000);
      if (wait.async) await wait.value;
      const failed = shard.failed as Error | undefined; // set by the port's error handler meanwhile
      if (failed) throw new EnvError(`env worker failed: ${failed.message}`);
    }
    if (Atomics.load(control, 1) === 1) {
      await failure;
      return;
    }
    shard.pending.delete(id);
  }

  async reset(seeds: ArrayLike<number>): Promise<Float32Array> {
    checkSeeds(seeds, this.numEnvs);
    const obs = new Float32Array(this.numEnvs * this.obsDim);
    const images = new Uint8Array(this.numEnvs * this.imageBytes);
    await Promise.all(this.shards.map(async (shard) => {
      const shardSeeds = Array.from({ length: shard.numEnvs }, (_, local) => seeds[shard.envOffset + local]);
      let payload: ShardResetPayload;
      if (shard.shared) {
        await this.requestShared(shard, { type: 'reset', id: 0, seeds: shardSeeds });
        payload = { obs: new Float32Array(shard.shared.obs), ...(shard.shared.images ? { images: new Uint8Array(shard.shared.images) } : {}) };
      } else {
        payload = (await this.request(shard, { type: 'reset', id: 0, seeds: shardSeeds })) as ShardResetPayload;
      }
      obs.set(payload.obs, shard.envOffset * this.obsDim);
      if (payload.images) images.set(payload.images, shard.envOffset * this.imageBytes);
    }));
    this.currentImages = images;
    return obs;
  }

  async step(actions: Float32Array): Promise<VectorStepResult> {
    const { obs, reward, terminated, truncated, success, finalObs } = await this.stepChunk(actions, 1, 1);
    return { obs, reward, terminated, truncated, success, finalObs };
  }

  async stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult> {
    const dim = this.actionDim;
    // Reject bad input before any shard steps, so no env moves on a failed call.
    checkChunkActions(actions, this.numEnvs, nSteps, dim);
    const n = this.numEnvs;
    const result: VectorChunkResult = {
      obs: new Float32Array(n * this.obsDim), finalObs: new Float32Array(n * this.obsDim), reward: new Float32Array(n),
      steps: new Int32Array(n), terminated: new Uint8Array(n), truncated: new Uint8Array(n), success: new Uint8Array(n),
      stepObs: new Float32Array(n * nSteps * this.obsDim),
    };
    const bytes = this.imageBytes;
    if (bytes > 0) {
      result.images = new Uint8Array(n * bytes);
      result.finalImages = new Uint8Array(n * bytes);
    }
    if (this.sharedMemory && nSteps > this.maxChunkSteps) await this.growSharedActions(nSteps);
    await Promise.all(this.shards.map(async (shard) => {
      const begin = shard.envOffset * nSteps * dim;
      const shardActions = actions.slice(begin, begin + shard.numEnvs * nSteps * dim);
      let payload: ShardStepPayload;
      if (shard.shared) {
        new Float32Array(shard.shared.actions).set(shardActions);
        await this.requestShared(shard, { type: 'step', id: 0, nSteps, gamma, actions: null });
        payload = {
          obs: new Float32Array(shard.shared.obs), finalObs: new Float32Array(shard.shared.finalObs), reward: new Float32Array(shard.shared.reward),
          stepObs: new Float32Array(shard.shared.stepObs, 0, shard.numEnvs * nSteps * this.obsDim),
          steps: new Int32Array(shard.shared.steps), flags: new Uint8Array(shard.shared.flags),
          ...(shard.shared.images ? { images: new Uint8Array(shard.shared.images), finalImages: new Uint8Array(shard.shared.finalImages!) } : {}),
        };
      } else {
        payload = (await this.request(shard, { type: 'step', id: 0, nSteps, gamma, actions: shardActions }, [shardActions.buffer])) as ShardStepPayload;
      }
      result.obs.set(payload.obs, shard.envOffset * this.obsDim);
      result.finalObs.set(payload.finalObs, shard.envOffset * this.obsDim);
      result.stepObs.set(payload.stepObs, shard.envOffset * nSteps * this.obsDim);
      result.reward.set(payload.reward, shard.envOffset);
      result.steps.set(payload.steps, shard.envOffset);
      if (payload.images) result.images!.set(payload.images, shard.envOffset * bytes);
      if (payload.finalImages) result.finalImages!.set(payload.finalImages, shard.envOffset * bytes);
      for (let local = 0; local < shard.numEnvs; local++) {
        result.terminated[shard.envOffset + local] = payload.flags[local * 3];
        result.truncated[shard.envOffset + local] = payload.flags[local * 3 + 1];
        result.success[shard.envOffset + local] = payload.flags[local * 3 + 2];
      }
    }));
    if (result.images) this.currentImages = result.images.slice();
    return result;
  }

  private async growSharedActions(nSteps: number): Promise<void> {
    this.maxChunkSteps = nSteps;
    await Promise.all(this.shards.map((shard) => {
      shard.shared = {
        ...shard.shared!, actions: new SharedArrayBuffer(shard.numEnvs * nSteps * this.actionDim * 4),
        stepObs: new SharedArrayBuffer(shard.numEnvs * nSteps * this.obsDim * 4), maxChunkSteps: nSteps,
      };
      return this.request(shard, { type: 'buffers', id: 0, shared: shard.shared });
    }));
  }

  async drainEpisodes(): Promise<EpisodeRecord[]> {
    const perShard = await Promise.all(this.shards.map(async (shard) => {
      const episodes = (await this.request(shard, { type: 'drain', id: 0 })) as EpisodeRecord[];
      return episodes.map((episode) => ({ ...episode, envIndex: episode.envIndex + shard.envOffset }));
    }));
    return perShard.flat();
  }

  async snapshot(): Promise<VectorEnvSnapshot> {
    const parts = (await Promise.all(this.shards.map((shard) => this.request(shard, { type: 'snapshot', id: 0 })))) as VectorEnvSnapshot[];
    const obs = new Float32Array(this.numEnvs * this.obsDim);
    parts.forEach((part, shardIndex) => obs.set(part.obs, this.shards[shardIndex].envOffset * this.obsDim));
    const bytes = this.imageBytes;
    const images = new Uint8Array(this.numEnvs * bytes);
    parts.forEach((part, shardIndex) => { if (part.images) images.set(part.images, this.shards[shardIndex].envOffset * bytes); });
    return {
      envs: parts.flatMap((part) => part.envs),
      seedStreams: parts.flatMap((part) => part.seedStreams),
      metrics: parts.reduce((sum, part) => addMetrics(sum, part.metrics), { clippedActions: 0, unstableResets: 0, envSteps: 0 }),
      obs,
      ...(bytes > 0 ? { images } : {}),
    };
  }

  /** Splits a whole-batch snapshot over the shards; the counters go to the first shard, since only their sum is read. */
  async restore(snapshot: VectorEnvSnapshot): Promise<void> {
    if (snapshot.envs.length !== this.numEnvs || snapshot.obs.length !== this.numEnvs * this.obsDim) {
      throw new EnvError(`saved env state is for ${snapshot.envs.length} envs; this batch has ${this.numEnvs} envs of obs size ${this.obsDim}`);
    }
    const bytes = this.imageBytes;
    await Promise.all(this.shards.map((shard, shardIndex) => {
      const end = shard.envOffset + shard.numEnvs;
      const part: VectorEnvSnapshot = {
        envs: snapshot.envs.slice(shard.envOffset, end),
        seedStreams: snapshot.seedStreams.slice(shard.envOffset, end),
        metrics: shardIndex === 0 ? snapshot.metrics : { clippedActions: 0, unstableResets: 0, envSteps: 0 },
        obs: snapshot.obs.slice(shard.envOffset * this.obsDim, end * this.obsDim),
        ...(snapshot.images ? { images: snapshot.images.slice(shard.envOffset * bytes, end * bytes) } : {}),
      };
      return this.request(shard, { type: 'restore', id: 0, snapshot: part });
    }));
    if (snapshot.images) this.currentImages = snapshot.images.slice();
  }

  async metrics(): Promise<VectorEnvMetrics> {
    const all = (await Promise.all(this.shards.map((shard) => this.request(shard, { type: 'metrics', id: 0 })))) as VectorEnvMetrics[];
    return all.reduce(addMetrics, { clippedActions: 0, unstableResets: 0, envSteps: 0 });
  }

  /**
   * Runs the task's scripted expert in the shards' workers, each request on its own single env,
   * the shards taking requests as they free up; the same demonstrations as collectExpertDemos on
   * these seeds in one thread. Undefined when `shouldStop` ended it early.
   */
  async recordExpertDemos(recording: ExpertRecording): Promise<Demonstrations | undefined> {
    const perRequest = Math.max(1, recording.episodesPerRequest ?? 2);
    const batches: number[][] = [];
    for (let first = 0; first < recording.seeds.length; first += perRequest) batches.push(recording.seeds.slice(first, first + perRequest));
    const parts: Demonstrations[] = new Array(batches.length);
    let next = 0;
    let episodes = 0;
    let successes = 0;
    let stopped = false;
    await Promise.all(this.shards.map(async (shard) => {
      while (next < batches.length) {
        if (recording.shouldStop?.()) {
          stopped = true;
          return;
        }
        const index = next++;
        const part = (await this.request(shard, { type: 'expert', id: 0, seeds: batches[index], noise: recording.noise })) as Demonstrations;
        parts[index] = part;
        episodes += part.success.length;
        successes += part.success.reduce((sum, flag) => sum + flag, 0);
        recording.onProgress?.(episodes, successes);
      }
    }));
    return stopped || batches.length === 0 ? undefined : mergeDemonstrations(parts);
  }

  async dispose(): Promise<void> {
    const shards = this.shards.splice(0);
    await Promise.all(shards.map(async (shard) => {
      // A worker that no longer answers is terminated after a short wait.
      const timeout = new Promise((resolve) => setTimeout(resolve, 2000));
      await Promise.race([this.request(shard, { type: 'dispose', id: 0 }).catch(() => undefined), timeout]);
      await shard.port.terminate();
    }));
  }
}
