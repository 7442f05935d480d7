import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../errors';
import { createRng } from '../random';
import { ObservationScaler } from './observation-scaler';
import { RewardScaler } from './reward-scaler';
import { INITIAL_COUNT, RunningMeanStd } from './running-mean-std';

/** Plain float64 mean and population variance of every value seen, with the 1e-4 prior (mean 0, var 1) merged in. */
function referenceStats(values: number[]): { mean: number; variance: number; count: number } {
  const n = values.length;
  const batchMean = values.reduce((sum, value) => sum + value, 0) / n;
  const batchVariance = values.reduce((sum, value) => sum + (value - batchMean) ** 2, 0) / n;
  const total = INITIAL_COUNT + n;
  const mean = (batchMean * n) / total;
  const variance = (1 * INITIAL_COUNT + batchVariance * n + batchMean ** 2 * INITIAL_COUNT * n / total) / total;
  return { mean, variance, count: total };
}

describe('RunningMeanStd', () => {
  it('merges one batch with the prior (hand case)', () => {
    // Batch [1, 3]: m_b = 2, v_b = 1. N = 2.0001; m = 0 + 2·2/2.0001 = 1.99990;
    // v = (1·1e-4 + 1·2 + 4·1e-4·2/2.0001) / 2.0001 = (2.0001 + 0.00039998) / 2.0001 = 1.0001999.
    const stats = new RunningMeanStd(1);
    stats.update([1, 3], 2);
    expect(stats.mean[0]).toBeCloseTo(4 / 2.0001, 12);
    expect(stats.variance[0]).toBeCloseTo((1e-4 + 2 + (4 * 1e-4 * 2) / 2.0001) / 2.0001, 12);
    expect(stats.count).toBeCloseTo(2.0001, 12);
  });

  it('batch by batch equals all values at once, per feature', () => {
    const rng = createRng(3);
    const rows = Array.from({ length: 37 }, () => [5 + 2 * rng.normal(), -1 + 0.1 * rng.normal()]);
    const stats = new RunningMeanStd(2);
    for (let first = 0; first < rows.length; first += 5) {
      const batch = rows.slice(first, first + 5);
      stats.update(batch.flat(), batch.length);
    }
    for (const feature of [0, 1]) {
      const reference = referenceStats(rows.map((row) => row[feature]));
      expect(stats.mean[feature]).toBeCloseTo(reference.mean, 10);
      expect(stats.variance[feature]).toBeCloseTo(reference.variance, 10);
    }
    expect(stats.count).toBeCloseTo(37 + INITIAL_COUNT, 10);
  });

  it('refuses stats of the wrong width or a negative variance in a checkpoint', () => {
    expect(() => RunningMeanStd.fromJSON({ mean: [0], var: [1], count: 1 }, 2, 'normalizer.obs')).toThrow(CheckpointError);
    expect(() => RunningMeanStd.fromJSON({ mean: [0], var: [-1], count: 1 }, 1, 'normalizer.obs')).toThrow("checkpoint running stats 'normalizer.obs'");
    expect(RunningMeanStd.fromJSON({ mean: [2], var: [4], count: 9 }, 1, 'x').toJSON()).toEqual({ mean: [2], var: [4], count: 9 });
  });
});

describe('ObservationScaler', () => {
  it('updates with what it observes, then normalizes and clips', () => {
    const scaler = new ObservationScaler(new RunningMeanStd(1), 1.5, true);
    const out = scaler.observe(Float32Array.of(1, 3));
    // Stats after [1, 3]: m = 1.99990, v = 1.0002; (1 − m)/sqrt(v + 1e-8) = −0.99980, (3 − m)/… = 1.00000.
    const { mean, variance } = scaler.stats;
    expect(out[0]).toBeCloseTo((1 - mean[0]) / Math.sqrt(variance[0] + 1e-8), 6);
    expect(out[1]).toBeCloseTo((3 - mean[0]) / Math.sqrt(variance[0] + 1e-8), 6);
    // 10 is (10 − 2)/1.0001 = 8 standard deviations out: clipped to 1.5, and normalize() leaves the stats alone.
    expect(scaler.normalize(Float32Array.of(10))[0]).toBeCloseTo(1.5, 6);
    expect(scaler.stats.count).toBeCloseTo(2.0001, 10);
  });

  it('is the identity when disabled', () => {
    const scaler = new ObservationScaler(new RunningMeanStd(2), 10, false);
    expect(Array.from(scaler.observe(Float32Array.of(7, -8)))).toEqual([7, -8]);
    expect(scaler.stats.count).toBe(INITIAL_COUNT);
  });
});

describe('RewardScaler', () => {
  it('divides by the running std of the discounted return and restarts it after an episode ends', () => {
    const scaler = new RewardScaler(1, new RunningMeanStd(1), 0.5, 10, true);
    // Step 1: G = 2; stats of [2]: v = (1e-4 + 0 + 4·1e-4·1/1.0001)/1.0001 = 4.9995e-4; r/sqrt(v + 1e-8) = 2/0.022359 = 89.45 → clipped to 10.
    expect(scaler.scale([2], [0])[0]).toBeCloseTo(10, 6);
    // Step 2 (episode ends): G = 0.5·2 + 4 = 5, stats of {2, 5}; reward 4 / std.
    const reference = referenceStats([2, 5]);
    expect(scaler.scale([4], [1])[0]).toBeCloseTo(Math.min(10, 4 / Math.sqrt(reference.variance + 1e-8)), 5);
    expect(scaler.returns[0]).toBe(0);
  });

  it('passes rewards through when disabled', () => {
    const scaler = new RewardScaler(2, new RunningMeanStd(1), 0.99, 10, false);
    expect(Array.from(scaler.scale([3, -40], [0, 1]))).toEqual([3, -40]);
  });
});
