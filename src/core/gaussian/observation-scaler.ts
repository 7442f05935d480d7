/**
 * The Gaussian policy's observation normalization (CleanRL's NormalizeObservation followed by a
 * clip): every observation the agent acts on first updates the running stats, then becomes
 *   clip((o − mean) / sqrt(var + 1e-8), −c, c).
 * Evaluation and bootstrap values read the stats without updating them.
 */
import { RunningMeanStd } from './running-mean-std';

export const NORM_EPSILON = 1e-8;

export class ObservationScaler {
  constructor(readonly stats: RunningMeanStd, readonly clip: number, readonly enabled: boolean) {}

  /** Updates the stats with `obs` [rows, dim] (when enabled), then normalizes them. */
  observe(obs: Float32Array): Float32Array {
    if (this.enabled) this.stats.update(obs, obs.length / this.stats.dim);
    return this.normalize(obs);
  }

  /** Normalizes with the stats as they are; the identity when disabled. */
  normalize(obs: Float32Array): Float32Array {
    if (!this.enabled) return obs.slice();
    const { dim, mean, variance } = this.stats;
    const out = new Float32Array(obs.length);
    for (let index = 0; index < obs.length; index++) {
      const feature = index % dim;
      const scaled = (obs[index] - mean[feature]) / Math.sqrt(variance[feature] + NORM_EPSILON);
      out[index] = Math.min(this.clip, Math.max(-this.clip, scaled));
    }
    return out;
  }
}
