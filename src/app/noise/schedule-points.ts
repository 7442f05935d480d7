/**
 * Points of the noise schedule over a run (DESIGN.md §3 "Noise head" schedules):
 * the noise level a and the σ bounds in force at evenly spaced env steps.
 */
import type { RunConfig } from '../../core/config';
import { noiseAt } from '../../core/config/noise-at';

export interface SchedulePoint {
  envSteps: number;
  level: number;
  stdMin: number;
  stdMax: number;
}

/** `count` points from 0 to `totalEnvSteps` inclusive (count ≥ 2). */
export function schedulePoints(config: RunConfig, totalEnvSteps: number, count = 120): SchedulePoint[] {
  const span = Math.max(1, totalEnvSteps);
  return Array.from({ length: count }, (_, pointIndex) => {
    const envSteps = Math.round((span * pointIndex) / (count - 1));
    return { envSteps, ...noiseAt(config, envSteps) };
  });
}
