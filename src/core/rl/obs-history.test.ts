import { describe, expect, it } from 'vitest';
import type { VectorChunkResult } from '../envs/vector-env';
import { ObsHistory } from './obs-history';

/** A chunk of 3 steps for 2 envs with obs dim 1: env 0 runs all 3, env 1 is done after 2 (reset obs 50). */
function chunk(): VectorChunkResult {
  return {
    obs: new Float32Array([13, 50]), finalObs: new Float32Array([13, 22]), reward: new Float32Array(2),
    terminated: new Uint8Array([0, 1]), truncated: new Uint8Array(2), success: new Uint8Array(2), steps: new Int32Array([3, 2]),
    // Rows past τ are zeros: env 1's third row is unused.
    stepObs: new Float32Array([11, 12, 13, 21, 22, 0]),
  };
}

describe('ObsHistory', () => {
  it('stacks the last frames oldest first and restarts finished envs', () => {
    // 2 envs, obs dim 2, history 3.
    const history = new ObsHistory(2, 2, 3);
    history.reset(new Float32Array([1, 1, 5, 5]));
    expect(Array.from(history.stacked())).toEqual([1, 1, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5]);
    history.push(new Float32Array([2, 2, 6, 6]));
    expect(Array.from(history.stacked())).toEqual([1, 1, 1, 1, 2, 2, 5, 5, 5, 5, 6, 6]);
    expect(Array.from(history.peekWith(new Float32Array([3, 3, 9, 9])))).toEqual([1, 1, 2, 2, 3, 3, 5, 5, 6, 6, 9, 9]);
    // peekWith leaves the history alone; env 1 restarts from its new first obs.
    history.push(new Float32Array([3, 3, 7, 7]), new Uint8Array([0, 1]));
    expect(Array.from(history.stacked())).toEqual([1, 1, 2, 2, 3, 3, 7, 7, 7, 7, 7, 7]);
  });

  it('advances by control steps with step spacing: the stack holds the last frames of the chunk, done envs restart', () => {
    const history = new ObsHistory(2, 1, 2);
    history.reset(new Float32Array([10, 20]));
    const finalStacks = history.advance(chunk(), 3, 'step');
    // Env 0: frames 12, 13 (the last two of 11, 12, 13). Env 1: 21, 22 before its reset.
    expect(Array.from(finalStacks)).toEqual([12, 13, 21, 22]);
    // Env 1 starts over from its reset observation, repeated.
    expect(Array.from(history.stacked())).toEqual([12, 13, 50, 50]);
  });

  it('advances by decisions with decision spacing: one frame per chunk', () => {
    const history = new ObsHistory(2, 1, 2);
    history.reset(new Float32Array([10, 20]));
    const finalStacks = history.advance(chunk(), 3, 'decision');
    // Each env appends only the chunk's last (final) observation.
    expect(Array.from(finalStacks)).toEqual([10, 13, 20, 22]);
    expect(Array.from(history.stacked())).toEqual([10, 13, 50, 50]);
  });

  it('a chunk shorter than the history keeps the older frames', () => {
    const history = new ObsHistory(1, 1, 3);
    history.reset(new Float32Array([1]));
    const oneStep: VectorChunkResult = {
      obs: new Float32Array([2]), finalObs: new Float32Array([2]), reward: new Float32Array(1), terminated: new Uint8Array(1),
      truncated: new Uint8Array(1), success: new Uint8Array(1), steps: new Int32Array([1]), stepObs: new Float32Array([2]),
    };
    history.advance(oneStep, 1, 'step');
    expect(Array.from(history.stacked())).toEqual([1, 1, 2]);
    expect(() => history.advance(oneStep, 2, 'step')).toThrow('stepObs has length 1; expected num_envs × n_steps × obs_dim = 1 × 2 × 1');
  });

  it('names the expected size on a wrong obs length', () => {
    const history = new ObsHistory(2, 3, 2);
    expect(() => history.reset(new Float32Array(5))).toThrow('obs has length 5; expected num_envs × obs_dim = 2 × 3');
  });

  it('hands out one env\'s stack and images as copies', () => {
    // 2 envs, 2 values each, 1 frame, 3 image bytes each: env 1 holds obs [3, 4] and bytes [7, 8, 9].
    const history = new ObsHistory(2, 2, 1, 3);
    history.reset(new Float32Array([1, 2, 3, 4]), new Uint8Array([4, 5, 6, 7, 8, 9]));
    const obs = history.envStacked(1);
    const images = history.envImages(1)!;
    expect(Array.from(obs)).toEqual([3, 4]);
    expect(Array.from(images)).toEqual([7, 8, 9]);
    obs[0] = 99;
    images[0] = 99;
    expect(Array.from(history.envStacked(1))).toEqual([3, 4]);
    expect(Array.from(history.envImages(1)!)).toEqual([7, 8, 9]);
    expect(new ObsHistory(2, 2, 1).envImages(0)).toBeUndefined();
  });
});
