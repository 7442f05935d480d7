import { describe, expect, it } from 'vitest';
import { PhaseTimes } from './phase-times';

describe('PhaseTimes', () => {
  it('charges each timed body to its phase, in seconds, and reports every phase', async () => {
    let now = 0;
    const phases = new PhaseTimes(() => now);
    await phases.time('env', async () => {
      now += 250; // 250 ms → 0.25 s
    });
    phases.timeSync('forward', () => {
      now += 40;
    });
    await phases.time('env', async () => {
      now += 50;
    });
    phases.add('data', 0.01);
    const metrics = phases.metrics();
    expect(metrics['perf/env_s']).toBeCloseTo(0.3, 12);
    expect(metrics['perf/forward_s']).toBeCloseTo(0.04, 12);
    expect(metrics['perf/data_s']).toBeCloseTo(0.01, 12);
    expect(metrics['perf/backward_s']).toBe(0);
    expect(Object.keys(metrics)).toHaveLength(7);
  });

  it('still charges a body that throws', async () => {
    let now = 0;
    const phases = new PhaseTimes(() => now);
    await expect(phases.time('policy', async () => {
      now += 100;
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(phases.metrics()['perf/policy_s']).toBeCloseTo(0.1, 12);
  });
});
