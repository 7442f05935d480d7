/** lift expert: grasp the cube, then raise it 12 cm above its rest height. */
import type { Rng } from '../../core/envs/task-api';
import { createGraspExpert } from '../kit/grasp-expert';

export const LIFT_CARRY_HEIGHT = 0.12;

export function createLiftExpert(noise: number, rng: Rng) {
  return createGraspExpert(noise, rng, (view, tcp, _cube, out) => {
    out[0] = tcp[0];
    out[1] = tcp[1];
    out[2] = view.episode.objectRestZ + LIFT_CARRY_HEIGHT;
  });
}
