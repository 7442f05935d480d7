/**
 * lift (like robomimic Lift): pick the cube up (DESIGN.md §5).
 * Success: cube centre 4 cm above its rest height.
 * Dense reward, staged: (reach + grasped + lift progress) / 3, and 1 on success, where
 * reach = 1 − tanh(10·|TCP − cube|) and lift progress = min(1, rise / 4 cm) while grasped.
 */
import { armTask, type ArmTaskDefinition as TaskDefinition } from '../kit/arm-task';
import type { ArmView as TaskView } from '../kit/arm-view';
import { closeness, distance3, isGrasped, objectPosition, tcpPosition } from '../kit/robot-state';
import { placeCube } from '../kit/randomize-cube';
import { CUBE_STATE_SLICES, writeCubeState } from '../kit/cube-features';
import { liftMjcf } from './scene';
import { createLiftExpert } from './expert';

export const LIFT_SUCCESS_HEIGHT = 0.04;
/** Cube centre range: (0.5 ± 0.06, 0 ± 0.06) m, any yaw. */
export const LIFT_CUBE_CENTER = [0.5, 0] as const;
export const LIFT_CUBE_HALF_RANGE = [0.06, 0.06] as const;

const tcp = new Float64Array(3);
const cube = new Float64Array(3);

export function liftSucceeded(view: TaskView): boolean {
  return objectPosition(view, cube)[2] > view.episode.objectRestZ + LIFT_SUCCESS_HEIGHT;
}

export const liftTask: TaskDefinition = {
  name: 'lift',
  // The version before the wrist camera was turned to look past the jaws: same physics and observations.
  formerHashes: ['2a769a57bd076458'],
  doc: 'Pick up the cube and lift it 4 cm above the table.',
  maxEpisodeSteps: 100,
  mjcf: liftMjcf,
  taskStateSlices: CUBE_STATE_SLICES,
  writeTaskState: writeCubeState,
  pointcloudExtraSlices: [],
  writePointcloudExtras() {},
  randomize(view, rng) {
    placeCube(view, rng, LIFT_CUBE_CENTER, LIFT_CUBE_HALF_RANGE);
  },
  evaluate(view) {
    const success = liftSucceeded(view);
    if (success) return { success, denseReward: 1 };
    tcpPosition(view, tcp);
    objectPosition(view, cube);
    const reach = closeness(distance3(tcp, cube), 10);
    const grasped = isGrasped(view, tcp, cube) ? 1 : 0;
    const rise = Math.min(1, Math.max(0, (cube[2] - view.episode.objectRestZ) / LIFT_SUCCESS_HEIGHT));
    return { success, denseReward: (reach + grasped + grasped * rise) / 3 };
  },
  createExpert: createLiftExpert,
};

/** The task as a plugin (DESIGN.md §13): the default export every task module has. */
export default armTask(liftTask);
