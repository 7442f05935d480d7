/** reach expert: a proportional TCP move to the goal with the jaws open. */
import type { Rng } from '../../../random';
import type { Expert } from '../../task-types';
import { tcpPosition } from '../../robot-state';
import { addActionNoise, moveToward } from '../../expert-common';

export function createReachExpert(noise: number, rng: Rng): Expert {
  const tcp = new Float64Array(3);
  return {
    reset() {},
    act(view, out) {
      moveToward(tcpPosition(view, tcp), view.episode.goal, 1, out);
      addActionNoise(out, noise, rng);
    },
  };
}
