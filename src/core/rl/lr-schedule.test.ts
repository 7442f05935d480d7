import { describe, expect, it } from 'vitest';
import { learningRateAt, type LrSchedule } from './lr-schedule';

describe('learningRateAt', () => {
  it('warms up linearly, then holds, decays linearly or by cosine (hand cases)', () => {
    // W = 4, base 1e-3: warm-up steps 0..3 give 0.25, 0.5, 0.75, 1.0 × 1e-3.
    const base: Omit<LrSchedule, 'kind'> = { baseLr: 1e-3, finalLr: 1e-4, warmupSteps: 4, totalSteps: 14 };
    for (const kind of ['constant', 'linear', 'cosine'] as const) {
      expect([0, 1, 2, 3].map((step) => learningRateAt({ ...base, kind }, step))).toEqual([0.25e-3, 0.5e-3, 0.75e-3, 1e-3]);
    }
    expect(learningRateAt({ ...base, kind: 'constant' }, 100)).toBe(1e-3);
    // Linear over 10 decay steps: at step 9, p = 0.5 → 1e-3 + (1e-4 − 1e-3)·0.5 = 5.5e-4; at 14 and beyond, 1e-4.
    expect(learningRateAt({ ...base, kind: 'linear' }, 9)).toBeCloseTo(5.5e-4, 12);
    expect(learningRateAt({ ...base, kind: 'linear' }, 14)).toBeCloseTo(1e-4, 12);
    expect(learningRateAt({ ...base, kind: 'linear' }, 50)).toBeCloseTo(1e-4, 12);
    // Cosine: step 4 (p = 0) gives base; step 9 (p = 0.5) gives the midpoint 5.5e-4;
    // step 6 (p = 0.2): 1e-4 + 9e-4·(1 + cos 0.2π)/2 = 1e-4 + 9e-4·0.904508 = 9.140576e-4.
    expect(learningRateAt({ ...base, kind: 'cosine' }, 4)).toBeCloseTo(1e-3, 12);
    expect(learningRateAt({ ...base, kind: 'cosine' }, 9)).toBeCloseTo(5.5e-4, 12);
    expect(learningRateAt({ ...base, kind: 'cosine' }, 6)).toBeCloseTo(9.140576e-4, 9);
    expect(learningRateAt({ ...base, kind: 'cosine' }, 14)).toBeCloseTo(1e-4, 12);
  });

  it('decays monotonically and stays within [finalLr, baseLr] after warm-up', () => {
    for (const kind of ['linear', 'cosine'] as const) {
      const schedule: LrSchedule = { kind, baseLr: 3e-4, finalLr: 1e-5, warmupSteps: 0, totalSteps: 37 };
      let previous = Infinity;
      for (let step = 0; step <= 40; step++) {
        const lr = learningRateAt(schedule, step);
        expect(lr).toBeLessThanOrEqual(previous);
        expect(lr).toBeGreaterThanOrEqual(1e-5 - 1e-15);
        expect(lr).toBeLessThanOrEqual(3e-4);
        previous = lr;
      }
    }
  });

  it('rejects bad fields and steps with the allowed values', () => {
    const schedule: LrSchedule = { kind: 'linear', baseLr: 1e-3, totalSteps: 10 };
    expect(() => learningRateAt({ ...schedule, kind: 'step' as 'linear' }, 0)).toThrow("lr_schedule.kind must be one of constant, linear, cosine, got 'step'");
    expect(() => learningRateAt({ ...schedule, warmupSteps: 11 }, 0)).toThrow('lr_schedule.warmup_steps (11) must be an integer in [0, total_steps = 10]');
    expect(() => learningRateAt({ ...schedule, totalSteps: 0 }, 0)).toThrow('lr_schedule.total_steps must be a positive integer, got 0');
    expect(() => learningRateAt({ ...schedule, baseLr: -1 }, 0)).toThrow('lr_schedule.base_lr must be a non-negative number, got -1');
    expect(() => learningRateAt(schedule, -1)).toThrow('step must be a non-negative integer, got -1');
  });
});
