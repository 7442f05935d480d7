import { describe, expect, it } from 'vitest';
import { RolloutBuffer } from './rollout-buffer';

const SHAPE = { numSteps: 2, numEnvs: 3, obsSize: 2, chainSize: 4, denoiseSteps: 2, logProbUnits: 1 };

describe('RolloutBuffer', () => {
  it('allocates time-major [T, N, ...] arrays of the right sizes', () => {
    const buffer = new RolloutBuffer(SHAPE);
    expect(buffer.entries).toBe(6);
    expect(buffer.obs.length).toBe(12);
    expect(buffer.chains.length).toBe(24);
    expect(buffer.denoiseInds.length).toBe(12);
    expect(buffer.oldLogProbs.length).toBe(6);
    expect(buffer.bootstrapValues.length).toBe(3);
    for (const array of [buffer.values, buffer.rewards, buffer.chunkSteps, buffer.terminated, buffer.truncated, buffer.finalValues, buffer.mask]) {
      expect(array.length).toBe(6);
    }
  });

  it('writeDecision puts decision t of env e at entry t·N + e', () => {
    const buffer = new RolloutBuffer(SHAPE);
    const rows = (offset: number, width: number) => Float32Array.from({ length: 3 * width }, (_, index) => offset + index);
    buffer.writeDecision(1, { obs: rows(100, 2), chains: rows(200, 4), denoiseInds: rows(300, 2), oldLogProbs: rows(400, 1), values: rows(500, 1) });
    // Entry (1, 2) = 5: obs [10, 12), chain [20, 24), value 5.
    expect([...buffer.obs.subarray(10, 12)]).toEqual([104, 105]);
    expect([...buffer.chains.subarray(20, 24)]).toEqual([208, 209, 210, 211]);
    expect([...buffer.denoiseInds.subarray(10, 12)]).toEqual([304, 305]);
    expect(buffer.oldLogProbs[5]).toBe(402);
    expect(buffer.values[3]).toBe(500);
    // Decision 0 is untouched.
    expect([...buffer.obs.subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('signals() shares the arrays with the advantage estimators', () => {
    const buffer = new RolloutBuffer(SHAPE);
    const signals = buffer.signals();
    expect(signals.numSteps).toBe(2);
    expect(signals.numEnvs).toBe(3);
    expect(signals.rewards).toBe(buffer.rewards);
    expect(signals.mask).toBe(buffer.mask);
    expect(signals.bootstrapValues).toBe(buffer.bootstrapValues);
  });
});
