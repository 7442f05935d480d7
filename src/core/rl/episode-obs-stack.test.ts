import { describe, expect, it } from 'vitest';
import { ConfigError, ShapeError } from '../errors';
import { createRng } from '../random';
import { ObsHistory } from './obs-history';
import { stackEpisodeObs } from './episode-obs-stack';

/** [frames, obsDim] random observations. */
function randomEpisode(frames: number, obsDim: number, seed: number): Float32Array {
  const rng = createRng(seed);
  return new Float32Array(frames * obsDim).map(() => 10 * rng.normal());
}

describe('stackEpisodeObs', () => {
  it('matches a hand-stacked example, repeating frame 0 before the start', () => {
    // Frames 0..4 of obs dim 2 hold [10f, 10f + 1]; 3 slots.
    const obs = new Float32Array([0, 1, 10, 11, 20, 21, 30, 31, 40, 41]);
    // Stride 1 at step 1: frames max(0, −1), 0, 1 = 0, 0, 1.
    expect(Array.from(stackEpisodeObs(obs, 2, 3, 1))).toEqual([0, 1, 0, 1, 10, 11]);
    // Stride 2 at step 4: frames 0, 2, 4.
    expect(Array.from(stackEpisodeObs(obs, 2, 3, 4, 2))).toEqual([0, 1, 20, 21, 40, 41]);
    // Stride 2 at step 2: frames max(0, −2), 0, 2 = 0, 0, 2.
    expect(Array.from(stackEpisodeObs(obs, 2, 3, 2, 2))).toEqual([0, 1, 0, 1, 20, 21]);
  });

  for (const [nObsSteps, stride] of [[1, 1], [2, 1], [3, 1], [2, 4], [3, 2]]) {
    it(`equals ObsHistory after a reset at every pushed step (n_obs_steps ${nObsSteps}, stride ${stride})`, () => {
      const obsDim = 5;
      const length = 13;
      const obs = randomEpisode(length + 1, obsDim, Math.floor(Math.random() * 2 ** 31));
      const history = new ObsHistory(1, obsDim, nObsSteps);
      history.reset(obs.slice(0, obsDim));
      expect(Array.from(stackEpisodeObs(obs, obsDim, nObsSteps, 0, stride))).toEqual(Array.from(history.stacked()));
      // The rollout pushes one frame per decision, every `stride` control steps.
      let checked = 1;
      for (let step = stride; step <= length; step += stride) {
        history.push(obs.slice(step * obsDim, (step + 1) * obsDim));
        expect(Array.from(stackEpisodeObs(obs, obsDim, nObsSteps, step, stride))).toEqual(Array.from(history.stacked()));
        checked++;
      }
      expect(checked).toBe(Math.floor(length / stride) + 1);
    });
  }

  it('names the field and the valid range on bad inputs', () => {
    const obs = randomEpisode(4, 3, 1);
    expect(() => stackEpisodeObs(obs, 3, 2, 4)).toThrow(ConfigError);
    expect(() => stackEpisodeObs(obs, 3, 2, 4)).toThrow('step must be an integer in [0, 3] (the episode has 3 steps), got 4');
    expect(() => stackEpisodeObs(obs, 3, 2, -1)).toThrow(/step must be an integer in \[0, 3\]/);
    expect(() => stackEpisodeObs(obs, 3, 2, 1.5)).toThrow(/got 1.5/);
    expect(() => stackEpisodeObs(obs, 5, 2, 0)).toThrow(ShapeError);
    expect(() => stackEpisodeObs(new Float32Array(0), 3, 2, 0)).toThrow('obs has length 0; expected a positive multiple of obs_dim = 3');
    expect(() => stackEpisodeObs(obs, 3, 0, 0)).toThrow(/policy.n_obs_steps must be a positive integer, got 0/);
    expect(() => stackEpisodeObs(obs, 3, 2, 0, 0)).toThrow(/frameStride must be a positive integer, got 0/);
  });
});
