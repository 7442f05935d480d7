import { describe, expect, it } from 'vitest';
import { TrainingError } from '../errors';
import { PpoUpdateTally } from './ppo-update-tally';

const METRICS = { 'losses/value': 2, 'losses/entropy': 0.5, 'losses/policy': -0.1, 'losses/approx_kl': 0.01, 'losses/clip_fraction': 0, 'losses/ratio_mean': 1, 'losses/ratio_max': 1.5 };

describe('PpoUpdateTally', () => {
  it('averages the applied minibatches\' metrics, keeps ratio_max as their maximum, and the key order', () => {
    const tally = new PpoUpdateTally({ current: 0 }, 3);
    tally.appliedWith(METRICS, 0.4);
    tally.appliedWith({ ...METRICS, 'losses/value': 4, 'losses/approx_kl': 0.03, 'losses/ratio_max': 1.2 }, 0.8);
    expect(tally.meanApproxKl()).toBeCloseTo(0.02, 12);
    const metrics = tally.metrics(2);
    expect(metrics).toEqual({
      'losses/nonfinite_skips': 0, 'train/early_stop_epoch': 2,
      'losses/value': 3, 'losses/entropy': 0.5, 'losses/policy': -0.1, 'losses/approx_kl': 0.02, 'losses/clip_fraction': 0, 'losses/ratio_mean': 1,
      'losses/grad_norm': (0.4 + 0.8) / 2, 'losses/ratio_max': 1.5,
    });
    expect(Object.keys(metrics)).toEqual([
      'losses/nonfinite_skips', 'train/early_stop_epoch', 'losses/value', 'losses/entropy', 'losses/policy', 'losses/approx_kl',
      'losses/clip_fraction', 'losses/ratio_mean', 'losses/grad_norm', 'losses/ratio_max',
    ]);
  });

  it('reports only the counters when nothing was applied', () => {
    const tally = new PpoUpdateTally({ current: 0 }, 0);
    tally.skipped();
    expect(tally.metrics(4)).toEqual({ 'losses/nonfinite_skips': 1, 'train/early_stop_epoch': 4 });
    expect([tally.applied, tally.nonfiniteSkips]).toEqual([0, 1]);
  });

  it('carries the skip streak across tallies, throws at ppo.max_nonfinite_skips, and an applied step resets it', () => {
    const streak = { current: 0 };
    new PpoUpdateTally(streak, 3).skipped();
    const tally = new PpoUpdateTally(streak, 3);
    tally.skipped();
    tally.appliedWith(METRICS, 1);
    expect(streak.current).toBe(0);
    tally.skipped();
    tally.skipped();
    expect(() => tally.skipped()).toThrow(TrainingError);
    expect(streak.current).toBe(3);
    expect(tally.nonfiniteSkips).toBe(4);
  });

  it('never throws with ppo.max_nonfinite_skips = 0', () => {
    const tally = new PpoUpdateTally({ current: 0 }, 0);
    for (let skip = 0; skip < 50; skip++) tally.skipped();
    expect(tally.nonfiniteSkips).toBe(50);
  });

  it('allFinite: false for NaN or ±Infinity', () => {
    expect(PpoUpdateTally.allFinite([0, -1, 1e30])).toBe(true);
    expect(PpoUpdateTally.allFinite([0, NaN])).toBe(false);
    expect(PpoUpdateTally.allFinite([-Infinity])).toBe(false);
  });
});
