/**
 * stack-cube (like ManiSkill StackCube-v1): pick the red cube and place it on the green one (DESIGN.md §5).
 * Success: placed, released and static, where
 *   placed   = red centre within STACK_LATERAL_TOLERANCE (1 cm) of the green centre in xy, and its
 *              height above the green centre within STACK_HEIGHT_TOLERANCE (5 mm) of one cube edge (4 cm);
 *   released = not isGrasped and a jaw gap above STACK_RELEASE_GAP (5 cm, 1 cm wider than the cube);
 *   static   = both cubes' linear speed below STACK_STATIC_SPEED (0.05 m/s).
 * Dense reward, staged like pick-cube, 1 on success:
 *   not placed: (reach + grasped + grasped·place) / 6                  ∈ [0, 1/2]
 *   placed:     1/2 + release · (1 + still) / 8                        ∈ [1/2, 3/4]
 * where reach = 1 − tanh(10·|TCP − red|), place = 1 − tanh(10·|red − (green + 4 cm ẑ)|),
 * release = 0 while grasped, else min(1, gap / STACK_RELEASE_GAP), and
 * still = 1 − tanh(10·max cube speed). Success ends the episode and the env pays p − 1, so
 * every state short of success must cost enough per step: with near-success states worth
 * 0.9 or more (a half-opened release, a cube held on top), PPO's success fell over training.
 */
import { armTask, type ArmTaskDefinition as TaskDefinition } from '../kit/arm-task';
import type { ArmView as TaskView } from '../kit/arm-view';
import type { Rng } from '../../core/envs/task-api';
import { closeness, distance3, gripperGap, isGrasped, objectPosition, tcpPosition } from '../kit/robot-state';
import { randomYaw, setCubeOnTable } from '../kit/randomize-cube';
import { CUBE_STATE_SLICES, writeCubeState } from '../kit/cube-features';
import { CUBE_HALF_SIZE } from '../kit/objects-mjcf';
import { STACK_HEIGHT, baseCubePosition, heightAboveStack, lateralOffset, maxCubeSpeed } from './stack-state';
import { stackCubeMjcf } from './scene';
import { createStackCubeExpert } from './expert';

/** Largest horizontal red-to-green centre offset that counts as on top (m). */
export const STACK_LATERAL_TOLERANCE = 0.01;
/**
 * Largest |red height above green − 4 cm| that counts as resting on top (m). Contact penetration
 * of a 64 g cube is well under 1 mm; 5 mm rejects a cube held clear above and a cube
 * propped on an edge, and a released cube cannot hover (static rules out falling).
 */
export const STACK_HEIGHT_TOLERANCE = 0.005;
/** Jaw gap above which the gripper has let go (m): the 4 cm cube plus 5 mm clearance per jaw. */
export const STACK_RELEASE_GAP = 2 * CUBE_HALF_SIZE + 0.01;
/** Linear speed below which a cube counts as static (m/s). */
export const STACK_STATIC_SPEED = 0.05;
/** Cube centres are sampled in (0.5 ± 0.1, 0 ± 0.1) m, each with a uniform yaw. */
export const STACK_CUBE_CENTER = [0.5, 0] as const;
export const STACK_CUBE_HALF_RANGE = [0.1, 0.1] as const;
/**
 * Smallest distance between the two centres at reset (m): the open jaws reach 5.2 cm to
 * each side of the TCP and a yawed green cube 2.8 cm from its centre, so grasping the red
 * cube never touches the green one.
 */
export const STACK_MIN_SEPARATION = 0.1;
/** Rejection-sampling attempts before the fallback placement (each succeeds with p ≈ 0.45). */
const PLACEMENT_ATTEMPTS = 64;

const tcp = new Float64Array(3);
const red = new Float64Array(3);
const green = new Float64Array(3);
const stackTarget = new Float64Array(3);

/** Reads the TCP and both cube centres into the module scratch. */
function readState(view: TaskView): void {
  tcpPosition(view, tcp);
  objectPosition(view, red);
  baseCubePosition(view, green);
}

function isPlaced(): boolean {
  return lateralOffset(red, green) < STACK_LATERAL_TOLERANCE && Math.abs(heightAboveStack(red, green)) < STACK_HEIGHT_TOLERANCE;
}

function isReleased(view: TaskView): boolean {
  return !isGrasped(view, tcp, red) && gripperGap(view) > STACK_RELEASE_GAP;
}

export function stackCubeSucceeded(view: TaskView): boolean {
  readState(view);
  return isPlaced() && isReleased(view) && maxCubeSpeed(view) < STACK_STATIC_SPEED;
}

/** Places both cubes on the table at least STACK_MIN_SEPARATION apart, each with a uniform yaw. */
function placeCubes(view: TaskView, rng: Rng): void {
  const sample = (axis: 0 | 1) => STACK_CUBE_CENTER[axis] + STACK_CUBE_HALF_RANGE[axis] * (2 * rng.uniform() - 1);
  let redX = 0, redY = 0, greenX = 0, greenY = 0;
  let separated = false;
  for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS && !separated; attempt++) {
    redX = sample(0);
    redY = sample(1);
    greenX = sample(0);
    greenY = sample(1);
    separated = Math.hypot(redX - greenX, redY - greenY) >= STACK_MIN_SEPARATION;
  }
  if (!separated) {
    // Practically unreachable (p ≈ 1e-17); keeps the reset valid anyway.
    redX = greenX = STACK_CUBE_CENTER[0];
    redY = STACK_CUBE_CENTER[1] + STACK_CUBE_HALF_RANGE[1];
    greenY = STACK_CUBE_CENTER[1] - STACK_CUBE_HALF_RANGE[1];
  }
  const qpos = view.arrays.qpos;
  setCubeOnTable(qpos, view.scene.objectQposAdr, redX, redY, randomYaw(rng));
  setCubeOnTable(qpos, view.scene.supportQposAdr, greenX, greenY, randomYaw(rng));
  view.episode.objectRestZ = CUBE_HALF_SIZE;
}

export const stackCubeTask: TaskDefinition = {
  name: 'stack-cube',
  // The version before the wrist camera was turned to look past the jaws: same physics and observations.
  formerHashes: ['5ba83f007728c580'],
  doc: 'Pick the red cube and place it on the green one, then let go.',
  maxEpisodeSteps: 100,
  mjcf: stackCubeMjcf,
  taskStateSlices: [
    ...CUBE_STATE_SLICES,
    { name: 'base_cube_pos', dim: 3, doc: 'green cube centre, world frame (m)' },
    { name: 'base_cube_quat', dim: 4, doc: 'green cube orientation, unit quaternion (w, x, y, z)' },
    { name: 'cube_to_base_cube', dim: 3, doc: 'green − red cube centre (m)' },
  ],
  writeTaskState(view, out, offset) {
    writeCubeState(view, out, offset);
    objectPosition(view, red);
    baseCubePosition(view, green);
    const qpos = view.arrays.qpos;
    const adr = view.scene.supportQposAdr;
    for (let axis = 0; axis < 3; axis++) out[offset + 10 + axis] = green[axis];
    for (let q = 0; q < 4; q++) out[offset + 13 + q] = qpos[adr + 3 + q];
    for (let axis = 0; axis < 3; axis++) out[offset + 17 + axis] = green[axis] - red[axis];
  },
  // Both cubes are in the points; there is no goal to add.
  pointcloudExtraSlices: [],
  writePointcloudExtras() {},
  randomize(view, rng) {
    placeCubes(view, rng);
  },
  evaluate(view) {
    const success = stackCubeSucceeded(view);
    if (success) return { success, denseReward: 1 };
    const grasped = isGrasped(view, tcp, red);
    if (isPlaced()) {
      const release = grasped ? 0 : Math.min(1, gripperGap(view) / STACK_RELEASE_GAP);
      const still = closeness(maxCubeSpeed(view), 10);
      return { success, denseReward: 0.5 + (release * (1 + still)) / 8 };
    }
    const reach = closeness(distance3(tcp, red), 10);
    stackTarget.set(green);
    stackTarget[2] += STACK_HEIGHT;
    const place = closeness(distance3(red, stackTarget), 10);
    const graspedFlag = grasped ? 1 : 0;
    return { success, denseReward: (reach + graspedFlag + graspedFlag * place) / 6 };
  },
  createExpert: createStackCubeExpert,
};

/** The task as a plugin (DESIGN.md §13): the default export every task module has. */
export default armTask(stackCubeTask);
