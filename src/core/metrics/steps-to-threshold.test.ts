import { describe, expect, it } from 'vitest';
import { envStepsToReach } from './steps-to-threshold';

const curve = (values: number[]) => values.map((value, index) => ({ 'progress/env_steps': 1000 * (index + 1), 'charts/success_rate': value }));

describe('envStepsToReach', () => {
  it('reads the first crossing of the debiased EMA, not of the raw curve', () => {
    // w = 0.5 on [0.5, 1, 1, 1]: raw 1 at step 2000, but the EMA is
    //   m1 = 0.25 → 0.25/0.5 = 0.5; m2 = 0.125 + 0.5 = 0.625 → 0.625/0.75 = 0.8333;
    //   m3 = 0.3125 + 0.5 = 0.8125 → 0.8125/0.875 = 0.9286 ≥ 0.9 at step 3000.
    expect(envStepsToReach(curve([0.5, 1, 1, 1]), 'charts/success_rate', 0.9, 0.5)).toBe(3000);
    // Without smoothing the raw crossing counts.
    expect(envStepsToReach(curve([0.5, 1, 1, 1]), 'charts/success_rate', 0.9, 0)).toBe(2000);
  });

  it('skips records without the metric, and is undefined when the curve never gets there', () => {
    const records = [{ 'progress/env_steps': 500 }, ...curve([0.95])];
    expect(envStepsToReach(records, 'charts/success_rate', 0.9, 0.9)).toBe(1000);
    expect(envStepsToReach(curve([0.2, 0.5, 0.89]), 'charts/success_rate', 0.9, 0)).toBeUndefined();
  });
});
