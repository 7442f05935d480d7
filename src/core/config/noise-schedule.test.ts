import { describe, expect, test } from 'vitest';
import { createRng } from '../random';
import { scheduleValue, type ScheduleSpec } from './noise-schedule';

describe('noise schedules', () => {
  test('constant', () => {
    expect(scheduleValue({ type: 'constant', start: 0.3 }, 0)).toBe(0.3);
    expect(scheduleValue({ type: 'constant', start: 0.3 }, 1e9)).toBe(0.3);
  });

  test('linear hand values', () => {
    const spec: ScheduleSpec = { type: 'linear', start: 0.3, end: 0.1, steps: 100 };
    // step 25: 0.3·0.75 + 0.1·0.25 = 0.25; step 100 and beyond: 0.1
    expect(scheduleValue(spec, 0)).toBeCloseTo(0.3, 12);
    expect(scheduleValue(spec, 25)).toBeCloseTo(0.25, 12);
    expect(scheduleValue(spec, 100)).toBeCloseTo(0.1, 12);
    expect(scheduleValue(spec, 500)).toBeCloseTo(0.1, 12);
  });

  test('exponential decays toward the min', () => {
    const spec: ScheduleSpec = { type: 'exponential', start: 0.3, end: 0.01, steps: 100 };
    // step 50: 0.01 + 0.29·exp(−1.5) = 0.01 + 0.29·0.2231302 = 0.0747078
    expect(scheduleValue(spec, 50)).toBeCloseTo(0.0747078, 6);
    // step ≥ 100: 0.01 + 0.29·exp(−3) = 0.0244379
    expect(scheduleValue(spec, 100)).toBeCloseTo(0.0244379, 6);
    expect(scheduleValue(spec, 1000)).toBeCloseTo(0.0244379, 6);
  });

  test('cosine after a hold', () => {
    const spec: ScheduleSpec = { type: 'cosine', start: 1, end: 0.2, steps: 100, holdSteps: 50 };
    expect(scheduleValue(spec, 49)).toBe(1);
    // step 100: p = 0.5, 0.2 + 0.8·(1 + cos(π/2))/2 = 0.6
    expect(scheduleValue(spec, 100)).toBeCloseTo(0.6, 12);
    expect(scheduleValue(spec, 150)).toBeCloseTo(0.2, 12);
  });

  test('fresh random specs agree with a float64 reference', () => {
    const rng = createRng(5);
    for (let trial = 0; trial < 50; trial++) {
      const start = rng.uniform();
      const end = rng.uniform() * start;
      const steps = 1 + rng.int(1000);
      const step = rng.int(2000);
      const p = Math.min(step / steps, 1);
      expect(scheduleValue({ type: 'linear', start, end, steps }, step)).toBeCloseTo(start + (end - start) * p, 10);
      expect(scheduleValue({ type: 'exponential', start, end, steps }, step)).toBeCloseTo(end + (start - end) * Math.exp(-3 * p), 10);
    }
  });

  test('bad specs throw a ConfigError naming the field', () => {
    expect(() => scheduleValue({ type: 'linear', start: 1, end: 0, steps: 0 }, 3)).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'schedule.steps' }));
    expect(() => scheduleValue({ type: 'wavy' } as unknown as ScheduleSpec, 3)).toThrow(/schedule.type must be one of constant, linear, exponential, cosine/);
    expect(() => scheduleValue({ type: 'cosine', start: 1, end: 0, steps: 5, holdSteps: -1 }, 3)).toThrow(/holdSteps/);
    expect(() => scheduleValue({ type: 'constant', start: 1 }, -1)).toThrow(/step/);
  });
});
