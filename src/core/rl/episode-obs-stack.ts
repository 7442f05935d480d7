import { ConfigError, ShapeError } from '../errors';

/**
 * The policy input [nObsSteps·obsDim] at control step `step` of a recorded episode,
 * oldest frame first (DESIGN.md §3 "Shapes"): frames step − (nObsSteps − 1 − slot)·frameStride,
 * with frames before the episode start replaced by frame 0, as ObsHistory repeats the
 * first observation after a reset. The rollout's ObsHistory advances once per chunk,
 * so its frames are n_action_steps apart (frameStride = n_action_steps); 1 stacks
 * consecutive control steps.
 *
 * @param obs [length + 1, obsDim] the episode's recorded observations.
 */
export function stackEpisodeObs(obs: Float32Array, obsDim: number, nObsSteps: number, step: number, frameStride = 1): Float32Array {
  if (!Number.isInteger(obsDim) || obsDim < 1 || obs.length === 0 || obs.length % obsDim !== 0) {
    throw new ShapeError('obs', `obs has length ${obs.length}; expected a positive multiple of obs_dim = ${obsDim}`);
  }
  if (!Number.isInteger(nObsSteps) || nObsSteps < 1) {
    throw new ConfigError('policy.n_obs_steps', `policy.n_obs_steps must be a positive integer, got ${nObsSteps}`);
  }
  if (!Number.isInteger(frameStride) || frameStride < 1) {
    throw new ConfigError('frameStride', `frameStride must be a positive integer, got ${frameStride}`);
  }
  const lastFrame = obs.length / obsDim - 1;
  if (!Number.isInteger(step) || step < 0 || step > lastFrame) {
    throw new ConfigError('step', `step must be an integer in [0, ${lastFrame}] (the episode has ${lastFrame} steps), got ${step}`);
  }
  const out = new Float32Array(nObsSteps * obsDim);
  for (let slot = 0; slot < nObsSteps; slot++) {
    const frame = Math.max(0, step - (nObsSteps - 1 - slot) * frameStride);
    out.set(obs.subarray(frame * obsDim, (frame + 1) * obsDim), slot * obsDim);
  }
  return out;
}
