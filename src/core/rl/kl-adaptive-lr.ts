/**
 * The actor lr adapted to the measured KL (`ppo.kl_adapt`, rsl_rl's adaptive schedule): after each
 * update with mean approx_kl k against the target κ,
 *   k > 2κ → scale ← max(scale / 1.5, 0.01);   0 < k < κ/2 → scale ← min(scale × 1.5, 10);
 * the actor lr is the schedule's lr × scale. The scale is part of a run's resume state.
 */
export const KL_ADAPT_FACTOR = 1.5;
export const KL_ADAPT_MIN_SCALE = 0.01;
export const KL_ADAPT_MAX_SCALE = 10;

/** The next scale after an update that measured `meanKl` (NaN or absent: unchanged); target 0 leaves it at 1. */
export function adaptKlScale(scale: number, meanKl: number | undefined, target: number): number {
  if (!(target > 0) || meanKl === undefined || !Number.isFinite(meanKl)) return scale;
  if (meanKl > 2 * target) return Math.max(scale / KL_ADAPT_FACTOR, KL_ADAPT_MIN_SCALE);
  if (meanKl > 0 && meanKl < target / 2) return Math.min(scale * KL_ADAPT_FACTOR, KL_ADAPT_MAX_SCALE);
  return scale;
}
