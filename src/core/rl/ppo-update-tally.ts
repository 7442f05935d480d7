import { TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import type { PpoMinibatchMetric } from './ppo-minibatch-loss';

type TalliedMetric = PpoMinibatchMetric | 'losses/grad_norm';

/**
 * One PPO update's bookkeeping: applied and skipped minibatches, the consecutive-skip streak
 * carried across updates, and the metrics averaged over the applied minibatches (ratio_max is
 * their maximum).
 */
export class PpoUpdateTally {
  /** Minibatch updates applied. */
  applied = 0;
  /** Minibatch updates skipped because a loss or gradient was not finite. */
  nonfiniteSkips = 0;
  private readonly sums = new Map<TalliedMetric, number>();
  private ratioMax = 0;

  /**
   * @param skipStreak consecutive skipped updates, carried across iterations
   * @param maxSkips ppo.max_nonfinite_skips: a streak this long throws (0 never does)
   */
  constructor(private readonly skipStreak: { current: number }, private readonly maxSkips: number) {}

  /** True when none of `values` is NaN or ±Infinity. */
  static allFinite(values: Iterable<number>): boolean {
    for (const value of values) if (!Number.isFinite(value)) return false;
    return true;
  }

  /** Counts a skipped minibatch; throws a TrainingError once the streak reaches ppo.max_nonfinite_skips. */
  skipped(): void {
    this.nonfiniteSkips++;
    this.skipStreak.current++;
    if (this.maxSkips > 0 && this.skipStreak.current >= this.maxSkips) {
      throw new TrainingError(
        `${this.skipStreak.current} updates in a row had a non-finite loss or gradient, so training paused with the weights from before them; lower actor_lr or critic_lr, or check the observations`,
        'nonfinite-updates',
      );
    }
  }

  /** Counts an applied minibatch with its metric values, in the loss's order, and the reported gradient norm. */
  appliedWith(metricValues: Partial<Record<PpoMinibatchMetric, number>>, gradNorm: number): void {
    this.applied++;
    this.skipStreak.current = 0;
    for (const [key, value] of Object.entries(metricValues) as [PpoMinibatchMetric, number][]) {
      if (key === 'losses/ratio_max') this.ratioMax = Math.max(this.ratioMax, value);
      else this.add(key, value);
    }
    this.add('losses/grad_norm', gradNorm);
  }

  /** Mean approx_kl over the applied minibatches so far (target_kl's test). */
  meanApproxKl(): number {
    return (this.sums.get('losses/approx_kl') ?? 0) / this.applied;
  }

  /** The update's metrics; the averages only when a minibatch was applied. */
  metrics(epochsRun: number): MetricRecord {
    const metrics: MetricRecord = { 'losses/nonfinite_skips': this.nonfiniteSkips, 'train/early_stop_epoch': epochsRun };
    if (this.applied > 0) {
      for (const [key, sum] of this.sums) metrics[key] = sum / this.applied;
      metrics['losses/ratio_max'] = this.ratioMax;
    }
    return metrics;
  }

  private add(key: TalliedMetric, value: number): void {
    this.sums.set(key, (this.sums.get(key) ?? 0) + value);
  }
}
