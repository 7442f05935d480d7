import { describe, expect, it } from 'vitest';
import { TfGate } from './tf-gate';

/** A promise with its resolver, to hold work open. */
function held() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('TfGate', () => {
  it('starts an exclusive section only after the calls in flight end, and holds new calls until it ends', async () => {
    const gate = new TfGate();
    const log: string[] = [];
    const first = held();
    const inFlight = gate.use(async () => {
      log.push('use 1 start');
      await first.promise;
      log.push('use 1 end');
    });
    const section = held();
    const exclusive = gate.exclusive(async () => {
      log.push('exclusive start');
      await section.promise;
      log.push('exclusive end');
    });
    const later = gate.use(async () => void log.push('use 2'));
    await tick();
    expect(log).toEqual(['use 1 start']);
    first.release();
    await tick();
    expect(log).toEqual(['use 1 start', 'use 1 end', 'exclusive start']);
    section.release();
    await Promise.all([inFlight, exclusive, later]);
    expect(log).toEqual(['use 1 start', 'use 1 end', 'exclusive start', 'exclusive end', 'use 2']);
  });

  it('runs exclusive sections one after another and goes on after one fails', async () => {
    const gate = new TfGate();
    const log: string[] = [];
    const failing = gate.exclusive(async () => {
      log.push('a');
      throw new Error('timing failed');
    });
    const next = gate.exclusive(async () => void log.push('b'));
    await expect(failing).rejects.toThrow('timing failed');
    await next;
    expect(await gate.use(async () => 'free')).toBe('free');
    expect(log).toEqual(['a', 'b']);
  });

  it('lets calls run side by side when no exclusive section waits', async () => {
    const gate = new TfGate();
    const both = held();
    let running = 0;
    let most = 0;
    const call = () => gate.use(async () => {
      running++;
      most = Math.max(most, running);
      await both.promise;
      running--;
    });
    const calls = [call(), call()];
    await tick();
    both.release();
    await Promise.all(calls);
    expect(most).toBe(2);
  });
});
