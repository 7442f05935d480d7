import { ShapeError } from '../errors';

/**
 * Monte-Carlo discounted return-to-go of every entry of consecutive whole episodes (DESIGN.md §4
 * "Decision"): G_i = R_i + γ^τ_i·G_{i+1}, with G_i = R_i on an episode's last entry (a finished
 * episode, so nothing is bootstrapped). rewards [N]: a demo step's r, or a decision's chunk reward
 * R = Σ_j γ^j·r_j; steps [N]: τ, the env steps an entry ran (1 per demo step); episodeStarts
 * [E + 1]: first entry of each episode, last value N. → [N], in float64 then stored as float32.
 */
export function discountedReturns(rewards: ArrayLike<number>, steps: ArrayLike<number>, episodeStarts: ArrayLike<number>, gamma: number): Float32Array {
  const count = rewards.length;
  if (steps.length !== count) throw new ShapeError('steps', `steps has ${steps.length} entries; expected one per reward (${count})`);
  const episodes = episodeStarts.length - 1;
  if (episodes < 0 || episodeStarts[0] !== 0 || episodeStarts[episodes] !== count) {
    throw new ShapeError('episodeStarts', `episodeStarts must run from 0 to the number of entries (${count}), got [${Array.from(episodeStarts).join(', ')}]`);
  }
  const returns = new Float32Array(count);
  for (let episodeIndex = 0; episodeIndex < episodes; episodeIndex++) {
    const first = episodeStarts[episodeIndex];
    const last = episodeStarts[episodeIndex + 1] - 1;
    if (last + 1 < first) throw new ShapeError('episodeStarts', `episodeStarts must be non-decreasing; episode ${episodeIndex} ends before it starts`);
    let following = 0;
    for (let entry = last; entry >= first; entry--) {
      following = rewards[entry] + (entry === last ? 0 : gamma ** steps[entry] * following);
      returns[entry] = following;
    }
  }
  return returns;
}
