/**
 * reach: move the TCP to a random goal point (DESIGN.md §5).
 * Success: TCP within 2.5 cm of the goal. Dense reward: 1 − tanh(5·d), 1 on success.
 */
import { armTask, type ArmTaskDefinition as TaskDefinition } from '../kit/arm-task';
import type { ArmView as TaskView } from '../kit/arm-view';
import { closeness, distance3, tcpPosition } from '../kit/robot-state';
import { reachMjcf } from './scene';
import { createReachExpert } from './expert';
import { goalPointcloudExtras } from '../kit/goal-extras';

export const REACH_SUCCESS_DISTANCE = 0.025;
/** Goal sampling box (m, world frame). */
export const REACH_GOAL_LOW = [0.35, -0.2, 0.05] as const;
export const REACH_GOAL_HIGH = [0.65, 0.2, 0.4] as const;

const tcp = new Float64Array(3);

export function reachDistance(view: TaskView): number {
  return distance3(tcpPosition(view, tcp), view.episode.goal);
}

export const reachTask: TaskDefinition = {
  name: 'reach',
  // The version before the wrist camera was turned to look past the jaws: same physics and observations.
  formerHashes: ['0ea0b3ea638c4347'],
  doc: 'Move the gripper to a random goal point.',
  maxEpisodeSteps: 50,
  mjcf: reachMjcf,
  taskStateSlices: [
    { name: 'goal_pos', dim: 3, doc: 'goal point, world frame (m)' },
    { name: 'tcp_to_goal', dim: 3, doc: 'goal − TCP (m)' },
  ],
  writeTaskState(view, out, offset) {
    tcpPosition(view, tcp);
    const goal = view.episode.goal;
    for (let axis = 0; axis < 3; axis++) {
      out[offset + axis] = goal[axis];
      out[offset + 3 + axis] = goal[axis] - tcp[axis];
    }
  },
  ...goalPointcloudExtras('goal point, world frame (m)'),
  randomize(view, rng) {
    for (let axis = 0; axis < 3; axis++) {
      view.episode.goal[axis] = REACH_GOAL_LOW[axis] + (REACH_GOAL_HIGH[axis] - REACH_GOAL_LOW[axis]) * rng.uniform();
    }
    view.episode.objectRestZ = 0;
  },
  evaluate(view) {
    const distance = reachDistance(view);
    const success = distance < REACH_SUCCESS_DISTANCE;
    return { success, denseReward: success ? 1 : closeness(distance, 5) };
  },
  createExpert: createReachExpert,
};

/** The task as a plugin (DESIGN.md §13): the default export every task module has. */
export default armTask(reachTask);
