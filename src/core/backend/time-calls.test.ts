import { describe, expect, it } from 'vitest';
import { timeCalls } from './time-calls';

/** A body that advances a fake clock by the given milliseconds per call. */
function fakeBody(durations: number[]) {
  let now = 0;
  let calls = 0;
  return {
    clock: () => now,
    body: async () => {
      now += durations[Math.min(calls, durations.length - 1)];
      calls++;
    },
    calls: () => calls,
  };
}

describe('timeCalls', () => {
  it('times the calls after the warmup and returns the mean in seconds', async () => {
    // Warmup 500 ms (untimed), then 10 + 20 + 30 ms → 60 ms / 3 = 0.02 s.
    const fake = fakeBody([500, 10, 20, 30]);
    expect(await timeCalls(fake.body, { warmup: 1, repeats: 3, budgetMs: 1000 }, fake.clock)).toBeCloseTo(0.02, 12);
    expect(fake.calls()).toBe(4);
  });

  it('stops once the budget is spent, after at least one timed call', async () => {
    // 400 ms per call: the first timed call already spends the 300 ms budget.
    const slow = fakeBody([400]);
    expect(await timeCalls(slow.body, { warmup: 1, repeats: 5, budgetMs: 300 }, slow.clock)).toBeCloseTo(0.4, 12);
    expect(slow.calls()).toBe(2);
    // 100 ms per call: 100, 200 < 250, then 300 ≥ 250 stops after three.
    const medium = fakeBody([100]);
    await timeCalls(medium.body, { warmup: 0, repeats: 10, budgetMs: 250 }, medium.clock);
    expect(medium.calls()).toBe(3);
  });
});
