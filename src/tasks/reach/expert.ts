/** reach expert: a proportional TCP move to the goal with the jaws open. */
import type { Rng } from '../../core/envs/task-api';
import type { ArmExpert as Expert } from '../kit/arm-task';
import { tcpPosition } from '../kit/robot-state';
import { addActionNoise, moveToward } from '../kit/expert-common';

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
