import { ConfigError } from '../errors';

/**
 * A scalar schedule over training steps, for the SDE noise level a or the noise head's σ_max
 * (DESIGN.md §3 "Noise head"; decay shapes as in reference 003).
 * - constant: `start` forever.
 * - linear: start → end over `steps`, then end.
 * - exponential: end + (start − end)·exp(−3·p), p = min(step/steps, 1), so it approaches end (the min).
 * - cosine: start for `holdSteps`, then end + (start − end)·(1 + cos(π·p))/2 over the next `steps`.
 */
export type ScheduleSpec =
  | { type: 'constant'; start: number }
  | { type: 'linear'; start: number; end: number; steps: number }
  | { type: 'exponential'; start: number; end: number; steps: number }
  | { type: 'cosine'; start: number; end: number; steps: number; holdSteps: number };

export const SCHEDULE_TYPES = ['constant', 'linear', 'exponential', 'cosine'] as const;

/** Exponential decay rate: after `steps` the gap to `end` is exp(−3) ≈ 5% of the start gap. */
const EXPONENTIAL_RATE = 3;

/** Throws ConfigError naming the field (prefixed by `field`) and the allowed values. */
export function validateSchedule(spec: ScheduleSpec, field = 'schedule'): void {
  if (!SCHEDULE_TYPES.includes(spec.type)) {
    throw new ConfigError(`${field}.type`, `${field}.type must be one of ${SCHEDULE_TYPES.join(', ')}, got ${String(spec.type)}`);
  }
  if (!Number.isFinite(spec.start)) throw new ConfigError(`${field}.start`, `${field}.start must be a finite number, got ${spec.start}`);
  if (spec.type === 'constant') return;
  if (!Number.isFinite(spec.end)) throw new ConfigError(`${field}.end`, `${field}.end must be a finite number, got ${spec.end}`);
  if (!Number.isInteger(spec.steps) || spec.steps < 1) {
    throw new ConfigError(`${field}.steps`, `${field}.steps (decay_steps) must be a positive integer, got ${spec.steps}`);
  }
  if (spec.type === 'cosine' && (!Number.isInteger(spec.holdSteps) || spec.holdSteps < 0)) {
    throw new ConfigError(`${field}.holdSteps`, `${field}.holdSteps must be a non-negative integer, got ${spec.holdSteps}`);
  }
}

/** The schedule's value at training step `step` (≥ 0). Pure. */
export function scheduleValue(spec: ScheduleSpec, step: number): number {
  validateSchedule(spec);
  if (!Number.isFinite(step) || step < 0) throw new ConfigError('step', `schedule step must be a finite number ≥ 0, got ${step}`);
  if (spec.type === 'constant') return spec.start;
  if (spec.type === 'cosine') {
    if (step < spec.holdSteps) return spec.start;
    const progress = Math.min((step - spec.holdSteps) / spec.steps, 1);
    return spec.end + ((spec.start - spec.end) * (1 + Math.cos(Math.PI * progress))) / 2;
  }
  const progress = Math.min(step / spec.steps, 1);
  if (spec.type === 'linear') return spec.start * (1 - progress) + spec.end * progress;
  return spec.end + (spec.start - spec.end) * Math.exp(-EXPONENTIAL_RATE * progress);
}
