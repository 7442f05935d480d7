/**
 * pick-cube expert: grasp the cube, rise 5 cm clear of the table, then carry
 * the cube centre to the goal and hold still there.
 */
import type { Rng } from '../../core/envs/task-api';
import { createGraspExpert } from '../kit/grasp-expert';

const CLEARANCE = 0.05;

export function createPickCubeExpert(noise: number, rng: Rng) {
  return createGraspExpert(noise, rng, (view, tcp, cube, out) => {
    const goal = view.episode.goal;
    // The cube hangs slightly off the TCP; aim the TCP so the cube lands on the goal.
    for (let axis = 0; axis < 3; axis++) out[axis] = goal[axis] - (cube[axis] - tcp[axis]);
    const lowEnough = cube[2] < view.episode.objectRestZ + CLEARANCE * 0.8;
    const farFromGoal = Math.hypot(goal[0] - cube[0], goal[1] - cube[1]) > 0.02;
    if (lowEnough && farFromGoal) {
      out[0] = tcp[0];
      out[1] = tcp[1];
      out[2] = Math.max(out[2], view.episode.objectRestZ + CLEARANCE + (tcp[2] - cube[2]));
    }
  });
}
