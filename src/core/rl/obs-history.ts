import type { BatchEnv } from '../envs/batch-env';
import { imageBytes } from '../envs/camera/image-layout';
import type { VectorChunkResult } from '../envs/vector-env';
import { ConfigError, ShapeError } from '../errors';

/** How a history advances over a chunk: one frame per control step, or one per decision. */
export type HistorySpacing = 'step' | 'decision';

/**
 * The last `nObsSteps` observations of each env, oldest first, as the policy's
 * input [numEnvs, nObsSteps·obsDim]. A new episode starts with its first
 * observation repeated, as the demos were stacked (DESIGN.md §3 "Shapes").
 * Image observations (`imageBytes` > 0) keep the current observation's camera
 * images beside it, uint8; they keep no history (nObsSteps must be 1).
 */
export class ObsHistory {
  private readonly frames: Float32Array;
  private readonly currentImages: Uint8Array;

  constructor(readonly numEnvs: number, readonly obsDim: number, readonly nObsSteps: number, readonly imageBytes = 0) {
    if (imageBytes > 0 && nObsSteps !== 1) {
      throw new ConfigError('policy.n_obs_steps', `policy.n_obs_steps (${nObsSteps}) must be 1 with image observations: they keep no history (one observation's images per decision)`);
    }
    this.frames = new Float32Array(numEnvs * nObsSteps * obsDim);
    this.currentImages = new Uint8Array(numEnvs * imageBytes);
  }

  /** [numEnvs × imageBytes] a copy of the current observation's images; undefined without image observations. */
  images(): Uint8Array | undefined {
    return this.imageBytes > 0 ? this.currentImages.slice() : undefined;
  }

  get stackedDim(): number {
    return this.nObsSteps * this.obsDim;
  }

  /** Starts every env's history from obs [numEnvs × obsDim] (and its images [numEnvs × imageBytes], for image observations). */
  reset(obs: Float32Array, images?: Uint8Array): void {
    this.checkObs(obs);
    this.setImages(images);
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) this.fill(envIndex, obs);
  }

  /** The current images become `images` [numEnvs × imageBytes]; a ShapeError when they are missing or of another size. */
  private setImages(images: Uint8Array | undefined, field = 'images'): void {
    if (this.imageBytes === 0) return;
    if (!images || images.length !== this.currentImages.length) {
      throw new ShapeError(field, `${field} has ${images?.length ?? 0} bytes; expected num_envs × image bytes = ${this.numEnvs} × ${this.imageBytes}`);
    }
    this.currentImages.set(images);
  }

  /** Appends obs [numEnvs × obsDim]; envs flagged in `restart` start over from this obs. */
  push(obs: Float32Array, restart?: Uint8Array): void {
    this.checkObs(obs);
    const frame = this.obsDim;
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) {
      if (restart?.[envIndex]) {
        this.fill(envIndex, obs);
        continue;
      }
      const base = envIndex * this.stackedDim;
      this.frames.copyWithin(base, base + frame, base + this.stackedDim);
      this.frames.set(obs.subarray(envIndex * frame, (envIndex + 1) * frame), base + this.stackedDim - frame);
    }
  }

  /** [numEnvs, nObsSteps·obsDim] copy. */
  stacked(): Float32Array {
    return this.frames.slice();
  }

  /** [nObsSteps·obsDim] a copy of env `envIndex`'s stack. */
  envStacked(envIndex: number): Float32Array {
    const size = this.stackedDim;
    return this.frames.slice(envIndex * size, (envIndex + 1) * size);
  }

  /** [imageBytes] a copy of env `envIndex`'s current images; undefined without image observations. */
  envImages(envIndex: number): Uint8Array | undefined {
    const bytes = this.imageBytes;
    return bytes > 0 ? this.currentImages.slice(envIndex * bytes, (envIndex + 1) * bytes) : undefined;
  }

  /**
   * Moves every env past one chunk of `nSteps` actions and returns each env's stack before any
   * restart [numEnvs, nObsSteps·obsDim], the input of V(final_obs), with its images for image
   * observations. 'step' appends the chunk's per-step observations, so the stack holds the last
   * n_obs_steps control steps as BC stacks demos; 'decision' appends only the chunk's last
   * observation. Done envs then start over from their reset observation.
   */
  advance(result: VectorChunkResult, nSteps: number, spacing: HistorySpacing): Float32Array {
    return this.advanceWithImages(result, nSteps, spacing).stacks;
  }

  /** advance(), with the images of the final observations [numEnvs × imageBytes] (image observations only). */
  advanceWithImages(result: VectorChunkResult, nSteps: number, spacing: HistorySpacing): { stacks: Float32Array; images?: Uint8Array } {
    if (this.imageBytes === 0) return { stacks: this.advanceFrames(result, nSteps, spacing) };
    if (!result.finalImages || result.finalImages.length !== this.currentImages.length) {
      throw new ShapeError('finalImages', `the chunk result holds ${result.finalImages?.length ?? 0} final image bytes; expected num_envs × image bytes = ${this.numEnvs} × ${this.imageBytes}`);
    }
    this.setImages(result.images, 'images');
    return { stacks: this.advanceFrames(result, nSteps, spacing), images: result.finalImages };
  }

  private advanceFrames(result: VectorChunkResult, nSteps: number, spacing: HistorySpacing): Float32Array {
    const done = new Uint8Array(this.numEnvs);
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) done[envIndex] = result.terminated[envIndex] || result.truncated[envIndex] ? 1 : 0;
    if (spacing === 'decision') {
      const finalStacks = this.peekWith(result.finalObs);
      this.push(result.obs, done);
      return finalStacks;
    }
    if (result.stepObs.length !== this.numEnvs * nSteps * this.obsDim) {
      throw new ShapeError('stepObs', `stepObs has length ${result.stepObs.length}; expected num_envs × n_steps × obs_dim = ${this.numEnvs} × ${nSteps} × ${this.obsDim}`);
    }
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) {
      for (let step = 0; step < result.steps[envIndex]; step++) this.shiftIn(envIndex, result.stepObs, (envIndex * nSteps + step) * this.obsDim);
    }
    const finalStacks = this.frames.slice();
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) if (done[envIndex]) this.fill(envIndex, result.obs);
    return finalStacks;
  }

  /** Appends the frame at source[offset] to env `envIndex`'s history, dropping its oldest. */
  private shiftIn(envIndex: number, source: Float32Array, offset: number): void {
    const base = envIndex * this.stackedDim;
    this.frames.copyWithin(base, base + this.obsDim, base + this.stackedDim);
    this.frames.set(source.subarray(offset, offset + this.obsDim), base + this.stackedDim - this.obsDim);
  }

  /** Every env's frames, for a resumed run (the images are the env batch's current ones, saved with its state). */
  snapshot(): Float32Array {
    return this.frames.slice();
  }

  restore(frames: Float32Array, images?: Uint8Array): void {
    if (frames.length !== this.frames.length) {
      throw new ShapeError('obs_history', `saved observation history has ${frames.length} values; expected num_envs × n_obs_steps × obs_dim = ${this.numEnvs} × ${this.nObsSteps} × ${this.obsDim}`);
    }
    this.setImages(images);
    this.frames.set(frames);
  }

  /** The stack each env would have after appending obs [numEnvs × obsDim], without changing the history. */
  peekWith(obs: Float32Array): Float32Array {
    this.checkObs(obs);
    const out = new Float32Array(this.frames.length);
    const frame = this.obsDim;
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) {
      const base = envIndex * this.stackedDim;
      out.set(this.frames.subarray(base + frame, base + this.stackedDim), base);
      out.set(obs.subarray(envIndex * frame, (envIndex + 1) * frame), base + this.stackedDim - frame);
    }
    return out;
  }

  private fill(envIndex: number, obs: Float32Array): void {
    const row = obs.subarray(envIndex * this.obsDim, (envIndex + 1) * this.obsDim);
    for (let slot = 0; slot < this.nObsSteps; slot++) this.frames.set(row, envIndex * this.stackedDim + slot * this.obsDim);
  }

  private checkObs(obs: Float32Array): void {
    if (obs.length !== this.numEnvs * this.obsDim) {
      throw new ShapeError('obs', `obs has length ${obs.length}; expected num_envs × obs_dim = ${this.numEnvs} × ${this.obsDim}`);
    }
  }
}

/** The observation history of a batch of envs: its float rows, and its camera images when the envs give them. */
export function historyFor(env: Pick<BatchEnv, 'numEnvs' | 'obsDim' | 'imageSpec'>, nObsSteps: number): ObsHistory {
  return new ObsHistory(env.numEnvs, env.obsDim, nObsSteps, env.imageSpec ? imageBytes(env.imageSpec) : 0);
}
