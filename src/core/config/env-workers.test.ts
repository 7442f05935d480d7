import { describe, expect, it } from 'vitest';
import { resolveEnvWorkers } from './env-workers';

describe('resolveEnvWorkers', () => {
  it('turns 0 into one thread per available core, at most one per env', () => {
    expect(resolveEnvWorkers(0, 16, 8)).toBe(8);
    expect(resolveEnvWorkers(0, 16, 2)).toBe(2);
    expect(resolveEnvWorkers(0, 4, 32)).toBe(4);
    expect(resolveEnvWorkers(0, 16, 1)).toBe(1);
    // A report of no cores still gets one thread.
    expect(resolveEnvWorkers(0, 16, 0)).toBe(1);
  });

  it('keeps an explicit count, capped at num_envs', () => {
    expect(resolveEnvWorkers(1, 16, 8)).toBe(1);
    expect(resolveEnvWorkers(3, 16, 8)).toBe(3);
    expect(resolveEnvWorkers(12, 16, 2)).toBe(12);
    expect(resolveEnvWorkers(12, 4, 2)).toBe(4);
  });

  it('rejects counts that are not sizes', () => {
    expect(() => resolveEnvWorkers(-1, 16, 8)).toThrow(/env\.workers must be an integer ≥ 0/);
    expect(() => resolveEnvWorkers(0, 0, 8)).toThrow(/num_envs must be a positive integer/);
  });
});
