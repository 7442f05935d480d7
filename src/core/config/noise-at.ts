/**
 * The noise level a and σ bounds a run config puts in force after a number of env
 * steps (DESIGN.md §3 "Noise head" schedules). Pure, so the trainer and the
 * page's schedule preview share one implementation.
 */
import type { RunConfig } from './run-config';
import { scheduleValue, type ScheduleSpec } from './noise-schedule';

export interface NoiseAt {
  level: number;
  stdMin: number;
  stdMax: number;
}

/** The decay schedule from `start` toward `end` that `config.noise` asks for. */
function decaySchedule(config: RunConfig, start: number, end: number): ScheduleSpec {
  const { decay, decay_steps: steps, hold_steps: holdSteps } = config.noise;
  if (decay === 'constant' || steps < 1) return { type: 'constant', start };
  if (decay === 'cosine') return { type: 'cosine', start, end, steps, holdSteps };
  return { type: decay, start, end, steps };
}

/** Noise level a and σ bounds in force after `envSteps` env steps; σ_max never drops below σ_min. */
export function noiseAt(config: RunConfig, envSteps: number): NoiseAt {
  const level = scheduleValue(decaySchedule(config, config.noise.level, config.noise.level_min), envSteps);
  const stdMax = scheduleValue(decaySchedule(config, config.noise.std_max, config.noise.std_min), envSteps);
  return { level, stdMin: config.noise.std_min, stdMax: Math.max(stdMax, config.noise.std_min) };
}
