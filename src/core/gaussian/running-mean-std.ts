/**
 * Running mean and variance per feature, merged batch by batch with the parallel update of
 * Chan et al. (as Gymnasium's NormalizeObservation and NormalizeReward keep them, DESIGN.md §14
 * "Gaussian PPO"): for a batch of n rows with mean m_b and population variance v_b,
 *   δ = m_b − m,  N = c + n,  m ← m + δ·n/N,  v ← (v·c + v_b·n + δ²·c·n/N) / N,  c ← N.
 * The count starts at 1e-4 (mean 0, variance 1) so the first batch dominates without a division by 0.
 */
import { CheckpointError } from '../errors';

export interface RunningStatsJson {
  mean: number[];
  var: number[];
  count: number;
}

export const INITIAL_COUNT = 1e-4;

export class RunningMeanStd {
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  count = INITIAL_COUNT;

  constructor(readonly dim: number) {
    this.mean = new Float64Array(dim);
    this.variance = new Float64Array(dim).fill(1);
  }

  /** Merges `rows` rows of `values` ([rows, dim], row-major). */
  update(values: ArrayLike<number>, rows: number): void {
    const { dim } = this;
    if (values.length !== rows * dim) throw new RangeError(`running stats of width ${dim} got ${values.length} values for ${rows} rows`);
    if (rows === 0) return;
    const total = this.count + rows;
    for (let feature = 0; feature < dim; feature++) {
      let sum = 0;
      for (let row = 0; row < rows; row++) sum += values[row * dim + feature];
      const batchMean = sum / rows;
      let squares = 0;
      for (let row = 0; row < rows; row++) squares += (values[row * dim + feature] - batchMean) ** 2;
      const batchVariance = squares / rows;
      const delta = batchMean - this.mean[feature];
      this.mean[feature] += (delta * rows) / total;
      this.variance[feature] = (this.variance[feature] * this.count + batchVariance * rows + (delta * delta * this.count * rows) / total) / total;
    }
    this.count = total;
  }

  toJSON(): RunningStatsJson {
    return { mean: [...this.mean], var: [...this.variance], count: this.count };
  }

  /** Stats read back from a checkpoint; throws CheckpointError naming `label` when they do not fit `dim`. */
  static fromJSON(json: unknown, dim: number, label: string): RunningMeanStd {
    const stats = json as Partial<RunningStatsJson> | undefined;
    const fits = (list: unknown): list is number[] => Array.isArray(list) && list.length === dim && list.every((value) => typeof value === 'number' && Number.isFinite(value));
    if (!stats || !fits(stats.mean) || !fits(stats.var) || stats.var.some((value) => value < 0) || !(typeof stats.count === 'number' && stats.count > 0)) {
      throw new CheckpointError(`checkpoint running stats '${label}' must hold mean and var lists of length ${dim} (var ≥ 0) and a positive count`);
    }
    const restored = new RunningMeanStd(dim);
    restored.mean.set(stats.mean);
    restored.variance.set(stats.var);
    restored.count = stats.count;
    return restored;
  }
}
