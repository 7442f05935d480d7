import { describe, expect, it } from 'vitest';
import { ObsHistory } from './obs-history';

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

  it('names the expected size on a wrong obs length', () => {
    const history = new ObsHistory(2, 3, 2);
    expect(() => history.reset(new Float32Array(5))).toThrow('obs has length 5; expected num_envs × obs_dim = 2 × 3');
  });
});
