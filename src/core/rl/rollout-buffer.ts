import type { RolloutSignals } from './advantages';
import { ShapeError } from '../errors';

/** Sizes of one rollout: T decisions × N envs, each a chain [K+1, H, A] and U log-prob units. */
export interface RolloutShape {
  numSteps: number;
  numEnvs: number;
  /** Stacked, normalized observation size (n_obs_steps × frame), or the encoder's feature size when it is frozen. */
  obsSize: number;
  /** (K + 1)·H·A */
  chainSize: number;
  /** K */
  denoiseSteps: number;
  /** Reduced log-prob units per decision: Ta·Ae (token), Ta (action) or 1 (chunk). */
  logProbUnits: number;
  /** Bytes of one decision's camera images (image observations, unless a frozen encoder's features replace them); 0 or absent = none. */
  imageBytes?: number;
}

/**
 * Everything PPO needs per SMDP decision (DESIGN.md §4 "Decision"), time-major:
 * entry (t, envIndex) lives at t·N + envIndex.
 */
export class RolloutBuffer {
  /** [T, N, obsSize]: observations, or a frozen encoder's features */
  readonly obs: Float32Array;
  /** [T, N, imageBytes] uint8: each decision's camera images, once (empty without them) */
  readonly images: Uint8Array;
  /** [T, N, K+1, H, A] */
  readonly chains: Float32Array;
  /** [T, N, K] 0/1 stochastic-step mask */
  readonly denoiseInds: Float32Array;
  /** [T, N, U] */
  readonly oldLogProbs: Float32Array;
  /** [T, N] */
  readonly values: Float32Array;
  /** [T, N] chunk reward Σ γ^j r_j */
  readonly rewards: Float32Array;
  /** [T, N] τ */
  readonly chunkSteps: Float32Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  /** [T, N] 1 where the chunk reached the task's success (which ends the episode) */
  readonly success: Uint8Array;
  /** [T, N] V(final_obs), read where truncated */
  readonly finalValues: Float32Array;
  /** [T, N] 1 = counts in the loss */
  readonly mask: Float32Array;
  /** [N] V of the observation after the last decision */
  readonly bootstrapValues: Float32Array;

  constructor(readonly shape: RolloutShape) {
    const entries = shape.numSteps * shape.numEnvs;
    this.obs = new Float32Array(entries * shape.obsSize);
    this.images = new Uint8Array(entries * (shape.imageBytes ?? 0));
    this.chains = new Float32Array(entries * shape.chainSize);
    this.denoiseInds = new Float32Array(entries * shape.denoiseSteps);
    this.oldLogProbs = new Float32Array(entries * shape.logProbUnits);
    this.values = new Float32Array(entries);
    this.rewards = new Float32Array(entries);
    this.chunkSteps = new Float32Array(entries);
    this.terminated = new Uint8Array(entries);
    this.truncated = new Uint8Array(entries);
    this.success = new Uint8Array(entries);
    this.finalValues = new Float32Array(entries);
    this.mask = new Float32Array(entries);
    this.bootstrapValues = new Float32Array(shape.numEnvs);
  }

  get entries(): number {
    return this.shape.numSteps * this.shape.numEnvs;
  }

  /** Stores the per-env rows of decision t; each source is [N, ...]; `images` [N × imageBytes] when the buffer keeps images. */
  writeDecision(step: number, rows: { obs: Float32Array; images?: Uint8Array; chains: Float32Array; denoiseInds: Float32Array; oldLogProbs: Float32Array; values: Float32Array }): void {
    const first = step * this.shape.numEnvs;
    this.obs.set(rows.obs, first * this.shape.obsSize);
    const imageBytes = this.shape.imageBytes ?? 0;
    if (imageBytes > 0) {
      if (rows.images?.length !== this.shape.numEnvs * imageBytes) {
        throw new ShapeError('images', `decision ${step} brings ${rows.images?.length ?? 0} image bytes; the buffer keeps num_envs × image bytes = ${this.shape.numEnvs} × ${imageBytes}`);
      }
      this.images.set(rows.images, first * imageBytes);
    }
    this.chains.set(rows.chains, first * this.shape.chainSize);
    this.denoiseInds.set(rows.denoiseInds, first * this.shape.denoiseSteps);
    this.oldLogProbs.set(rows.oldLogProbs, first * this.shape.logProbUnits);
    this.values.set(rows.values, first);
  }

  /** The advantage estimators' view of this rollout. */
  signals(): RolloutSignals {
    return {
      numSteps: this.shape.numSteps,
      numEnvs: this.shape.numEnvs,
      rewards: this.rewards,
      values: this.values,
      terminated: this.terminated,
      truncated: this.truncated,
      success: this.success,
      chunkSteps: this.chunkSteps,
      finalValues: this.finalValues,
      bootstrapValues: this.bootstrapValues,
      mask: this.mask,
    };
  }
}
