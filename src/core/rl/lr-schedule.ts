import { ConfigError } from '../errors';

export type LrScheduleKind = 'constant' | 'linear' | 'cosine';
export const LR_SCHEDULE_KINDS: readonly LrScheduleKind[] = ['constant', 'linear', 'cosine'];

/** A learning-rate schedule over optimizer steps (DESIGN.md §4). */
export interface LrSchedule {
  /** Shape after warm-up: constant, linear decay or cosine decay to finalLr. */
  kind: LrScheduleKind;
  /** Peak learning rate, reached at the end of warm-up. */
  baseLr: number;
  /** Learning rate at totalSteps and after (default 0); unused by 'constant'. */
  finalLr?: number;
  /** Steps of linear warm-up from baseLr/warmupSteps up to baseLr (default 0). */
  warmupSteps?: number;
  /** Step at which the decay reaches finalLr. */
  totalSteps: number;
}

/** Throws a ConfigError naming the bad field under `prefix` (e.g. 'actor_lr_schedule'). */
export function checkLrSchedule(schedule: LrSchedule, prefix = 'lr_schedule'): void {
  if (!LR_SCHEDULE_KINDS.includes(schedule.kind)) {
    throw new ConfigError(`${prefix}.kind`, `${prefix}.kind must be one of ${LR_SCHEDULE_KINDS.join(', ')}, got '${schedule.kind}'`);
  }
  const finalLr = schedule.finalLr ?? 0;
  const warmupSteps = schedule.warmupSteps ?? 0;
  if (!(schedule.baseLr >= 0 && Number.isFinite(schedule.baseLr))) {
    throw new ConfigError(`${prefix}.base_lr`, `${prefix}.base_lr must be a non-negative number, got ${schedule.baseLr}`);
  }
  if (!(finalLr >= 0 && Number.isFinite(finalLr))) {
    throw new ConfigError(`${prefix}.final_lr`, `${prefix}.final_lr must be a non-negative number, got ${finalLr}`);
  }
  if (!Number.isInteger(schedule.totalSteps) || schedule.totalSteps < 1) {
    throw new ConfigError(`${prefix}.total_steps`, `${prefix}.total_steps must be a positive integer, got ${schedule.totalSteps}`);
  }
  if (!Number.isInteger(warmupSteps) || warmupSteps < 0 || warmupSteps > schedule.totalSteps) {
    throw new ConfigError(`${prefix}.warmup_steps`, `${prefix}.warmup_steps (${warmupSteps}) must be an integer in [0, total_steps = ${schedule.totalSteps}]`);
  }
}

/**
 * lr(step) for step = 0, 1, 2, … (DESIGN.md §4):
 *   warm-up (step < W):   baseLr·(step + 1)/W
 *   after, p = min(1, (step − W)/(total − W)):
 *     constant: baseLr
 *     linear:   baseLr + (finalLr − baseLr)·p
 *     cosine:   finalLr + (baseLr − finalLr)·(1 + cos(πp))/2
 */
export function learningRateAt(schedule: LrSchedule, step: number): number {
  checkLrSchedule(schedule);
  if (!Number.isInteger(step) || step < 0) throw new ConfigError('step', `step must be a non-negative integer, got ${step}`);
  const warmupSteps = schedule.warmupSteps ?? 0;
  const finalLr = schedule.finalLr ?? 0;
  if (step < warmupSteps) return (schedule.baseLr * (step + 1)) / warmupSteps;
  if (schedule.kind === 'constant') return schedule.baseLr;
  const decaySteps = schedule.totalSteps - warmupSteps;
  const progress = decaySteps === 0 ? 1 : Math.min(1, (step - warmupSteps) / decaySteps);
  if (schedule.kind === 'linear') return schedule.baseLr + (finalLr - schedule.baseLr) * progress;
  return finalLr + ((schedule.baseLr - finalLr) * (1 + Math.cos(Math.PI * progress))) / 2;
}
