/**
 * pick-cube (like ManiSkill PickCube-v1): carry the cube to a goal point (DESIGN.md §5).
 * Success: cube centre within 2.5 cm of the goal and every arm joint slower than 0.2 rad/s.
 * Dense reward, staged: (reach + grasped + grasped·place + placed·static) / 4, 1 on success, where
 * reach = 1 − tanh(10·|TCP − cube|), place = 1 − tanh(5·|cube − goal|), static = 1 − tanh(5·max|q̇|).
 */
import { armTask, type ArmTaskDefinition as TaskDefinition } from '../kit/arm-task';
import type { ArmView as TaskView } from '../kit/arm-view';
import { armMaxJointSpeed, closeness, distance3, isGrasped, objectPosition, tcpPosition } from '../kit/robot-state';
import { placeCube } from '../kit/randomize-cube';
import { CUBE_STATE_SLICES, writeCubeState } from '../kit/cube-features';
import { pickCubeMjcf } from './scene';
import { createPickCubeExpert } from './expert';
import { goalPointcloudExtras } from '../kit/goal-extras';

export const PICK_GOAL_DISTANCE = 0.025;
export const PICK_STATIC_SPEED = 0.2;
export const PICK_CUBE_CENTER = [0.5, 0] as const;
export const PICK_CUBE_HALF_RANGE = [0.1, 0.1] as const;
/** Goal box (m, world frame). */
export const PICK_GOAL_LOW = [0.4, -0.1, 0.04] as const;
export const PICK_GOAL_HIGH = [0.6, 0.1, 0.3] as const;

const tcp = new Float64Array(3);
const cube = new Float64Array(3);

export function pickCubeSucceeded(view: TaskView): boolean {
  objectPosition(view, cube);
  return distance3(cube, view.episode.goal) < PICK_GOAL_DISTANCE && armMaxJointSpeed(view) < PICK_STATIC_SPEED;
}

export const pickCubeTask: TaskDefinition = {
  name: 'pick-cube',
  // The version before the wrist camera was turned to look past the jaws: same physics and observations.
  formerHashes: ['522c76830548a05a'],
  doc: 'Carry the cube to a random goal point and hold still.',
  maxEpisodeSteps: 100,
  mjcf: pickCubeMjcf,
  taskStateSlices: [
    ...CUBE_STATE_SLICES,
    { name: 'goal_pos', dim: 3, doc: 'goal point, world frame (m)' },
    { name: 'cube_to_goal', dim: 3, doc: 'goal − cube (m)' },
  ],
  writeTaskState(view, out, offset) {
    writeCubeState(view, out, offset);
    objectPosition(view, cube);
    const goal = view.episode.goal;
    for (let axis = 0; axis < 3; axis++) {
      out[offset + 10 + axis] = goal[axis];
      out[offset + 13 + axis] = goal[axis] - cube[axis];
    }
  },
  ...goalPointcloudExtras('goal point, world frame (m)'),
  randomize(view, rng) {
    placeCube(view, rng, PICK_CUBE_CENTER, PICK_CUBE_HALF_RANGE);
    for (let axis = 0; axis < 3; axis++) {
      view.episode.goal[axis] = PICK_GOAL_LOW[axis] + (PICK_GOAL_HIGH[axis] - PICK_GOAL_LOW[axis]) * rng.uniform();
    }
  },
  evaluate(view) {
    const success = pickCubeSucceeded(view);
    if (success) return { success, denseReward: 1 };
    tcpPosition(view, tcp);
    objectPosition(view, cube);
    const reach = closeness(distance3(tcp, cube), 10);
    const grasped = isGrasped(view, tcp, cube) ? 1 : 0;
    const goalDistance = distance3(cube, view.episode.goal);
    const place = closeness(goalDistance, 5);
    const placed = goalDistance < PICK_GOAL_DISTANCE ? 1 : 0;
    const still = closeness(armMaxJointSpeed(view), 5);
    return { success, denseReward: (reach + grasped + grasped * place + placed * still) / 4 };
  },
  createExpert: createPickCubeExpert,
};

/** The task as a plugin (DESIGN.md §13): the default export every task module has. */
export default armTask(pickCubeTask);
