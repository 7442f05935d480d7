/**
 * peg-insertion (like robomimic Square, a tight-clearance insertion; DESIGN.md §5):
 * grasp a 3 × 3 × 9 cm square peg and insert it into the fixture's 3.4 cm square
 * hole (4 mm clearance in total, 2 mm per side; walls 4 cm tall, 1.5 cm thick). The
 * grasp point is 1.5 cm below the peg top, so the pads stay above the walls when seated.
 *
 * Success: the peg's bottom face centre is within PEG_LATERAL_TOLERANCE of the hole
 * axis, the peg is upright within PEG_MAX_TILT, and its bottom is at least
 * PEG_INSERT_DEPTH = 2 cm below the fixture's top. A peg jammed on the rim (on a
 * wall, or tilted across the opening) is shallower or tilted, so it fails.
 *
 * Dense reward, staged, in [0, 1] and 1 on success:
 *   (reach + grasped + grasped·align + grasped·lower + 2·inserted) / 6, where
 *   reach    = 1 − tanh(10·|grasp point − TCP|),
 *   grasped  = both pads touching, jaws not shut, TCP within 2 cm of the grasp point,
 *   align    = 1 − tanh(5·lateral), lateral = horizontal distance of the peg bottom to the hole axis,
 *   lower    = aligned · (1 − tanh(20·max(0, −depth))): an aligned peg gains as it comes down to the rim,
 *   inserted = aligned · clamp(depth / 2 cm, 0, 1), depth = fixture top − peg bottom z,
 *   aligned  = lateral ≤ PEG_LATERAL_TOLERANCE and upright.
 * Alignment over the hole pays before any descent; lowering and depth pay only when aligned,
 * so a peg pressed onto the rim off the axis earns less than one held aligned above the hole.
 * Without the lowering term an aligned peg hovering over the hole scored as much as one
 * touching the rim, and PPO could settle on hovering.
 *
 * Randomization: the peg stands upright in x 0.5 ± 0.08, y −0.12 ± 0.06 with yaw within
 * ±PEG_YAW_RANGE (the parallel jaws square a yawed peg up as they close); the fixture sits
 * in x 0.5 ± 0.08, y 0.12 ± 0.06, so the two never overlap. The fixture's yaw stays 0:
 * the 4-D ee_delta_pos action has no wrist rotation to turn the peg to another yaw.
 */
import { armTask, type ArmTaskDefinition as TaskDefinition } from '../kit/arm-task';
import type { ArmView as TaskView } from '../kit/arm-view';
import { closeness, distance3, tcpPosition } from '../kit/robot-state';
import { HOLE_CLEARANCE, PEG_HALF_HEIGHT } from '../kit/peg-mjcf';
import { fixtureTop, isPegGrasped, lateralToHole, pegAxis, pegBottom, pegGraspPoint } from './peg-state';
import { pegInsertionMjcf } from './scene';
import { createPegInsertionExpert } from './expert';
import { goalPointcloudExtras } from '../kit/goal-extras';

/** The peg bottom must be this far below the fixture's top (m). */
export const PEG_INSERT_DEPTH = 0.02;
/** Largest lateral offset of the peg bottom from the hole axis (m): the 2 mm clearance plus 1 mm for contact softness. */
export const PEG_LATERAL_TOLERANCE = HOLE_CLEARANCE + 0.001;
/** Largest tilt of the peg axis from vertical counted as upright (rad, 15°). */
export const PEG_MAX_TILT = (15 * Math.PI) / 180;
/** Peg centre range (m, world frame) and yaw range (± rad, 15°). */
export const PEG_CENTER = [0.5, -0.12] as const;
export const PEG_HALF_RANGE = [0.08, 0.06] as const;
export const PEG_YAW_RANGE = (15 * Math.PI) / 180;
/** Hole centre range on the table (m, world frame). */
export const FIXTURE_CENTER = [0.5, 0.12] as const;
export const FIXTURE_HALF_RANGE = [0.08, 0.06] as const;

const MIN_UPRIGHT = Math.cos(PEG_MAX_TILT);

const tcp = new Float64Array(3);
const grasp = new Float64Array(3);
const bottom = new Float64Array(3);
const axis = new Float64Array(3);

/** Peg bottom near the hole axis and upright: inside the hole, or right above it. */
function pegAligned(view: TaskView): boolean {
  pegBottom(view, bottom);
  return lateralToHole(view, bottom) <= PEG_LATERAL_TOLERANCE && pegAxis(view, axis)[2] >= MIN_UPRIGHT;
}

/** Depth of the peg bottom below the fixture's top (m; negative above it). */
function pegDepth(view: TaskView): number {
  return fixtureTop(view) - pegBottom(view, bottom)[2];
}

export function pegInsertionSucceeded(view: TaskView): boolean {
  return pegAligned(view) && pegDepth(view) >= PEG_INSERT_DEPTH;
}

export const pegInsertionTask: TaskDefinition = {
  name: 'peg-insertion',
  // The version before the wrist camera was turned to look past the jaws: same physics and observations.
  formerHashes: ['fd0dcd8f64734cb0'],
  doc: 'Grasp the square peg and insert it into the fixture, 4 mm clearance.',
  // The noise-free expert needs 53 steps on average (64 at most over 1,000 episodes); noisy demos need the slack.
  maxEpisodeSteps: 120,
  mjcf: pegInsertionMjcf,
  taskStateSlices: [
    { name: 'peg_pos', dim: 3, doc: 'peg centre, world frame (m)' },
    { name: 'peg_quat', dim: 4, doc: 'peg orientation, unit quaternion (w, x, y, z)' },
    { name: 'tcp_to_peg', dim: 3, doc: 'peg grasp point (on the axis 3 cm above the centre) − TCP (m)' },
    { name: 'goal_pos', dim: 3, doc: 'hole centre on the table, world frame (m)' },
    { name: 'peg_to_hole', dim: 3, doc: 'hole centre on the table − peg bottom face centre (m); 0 when fully seated' },
  ],
  writeTaskState(view, out, offset) {
    const qpos = view.arrays.qpos;
    const adr = view.scene.objectQposAdr;
    tcpPosition(view, tcp);
    pegGraspPoint(view, grasp);
    pegBottom(view, bottom);
    const hole = view.episode.goal;
    for (let i = 0; i < 7; i++) out[offset + i] = qpos[adr + i];
    for (let axis = 0; axis < 3; axis++) {
      out[offset + 7 + axis] = grasp[axis] - tcp[axis];
      out[offset + 10 + axis] = hole[axis];
      out[offset + 13 + axis] = hole[axis] - bottom[axis];
    }
  },
  ...goalPointcloudExtras('hole centre on the table, world frame (m)'),
  randomize(view, rng) {
    const qpos = view.arrays.qpos;
    const adr = view.scene.objectQposAdr;
    qpos[adr] = PEG_CENTER[0] + PEG_HALF_RANGE[0] * (2 * rng.uniform() - 1);
    qpos[adr + 1] = PEG_CENTER[1] + PEG_HALF_RANGE[1] * (2 * rng.uniform() - 1);
    qpos[adr + 2] = PEG_HALF_HEIGHT;
    const yaw = PEG_YAW_RANGE * (2 * rng.uniform() - 1);
    qpos.set([Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)], adr + 3);
    view.episode.objectRestZ = PEG_HALF_HEIGHT;
    const goal = view.episode.goal;
    goal[0] = FIXTURE_CENTER[0] + FIXTURE_HALF_RANGE[0] * (2 * rng.uniform() - 1);
    goal[1] = FIXTURE_CENTER[1] + FIXTURE_HALF_RANGE[1] * (2 * rng.uniform() - 1);
    goal[2] = 0;
  },
  evaluate(view) {
    // pegInsertionSucceeded's terms, computed once for the reward too.
    const aligned = pegAligned(view);
    const depth = pegDepth(view);
    const success = aligned && depth >= PEG_INSERT_DEPTH;
    if (success) return { success, denseReward: 1 };
    tcpPosition(view, tcp);
    pegGraspPoint(view, grasp);
    const reach = closeness(distance3(tcp, grasp), 10);
    const grasped = isPegGrasped(view, tcp, grasp) ? 1 : 0;
    // pegDepth left the peg bottom in `bottom`.
    const align = closeness(lateralToHole(view, bottom), 5);
    const lower = aligned ? closeness(Math.max(0, -depth), 20) : 0;
    const inserted = aligned ? Math.min(1, Math.max(0, depth / PEG_INSERT_DEPTH)) : 0;
    return { success, denseReward: (reach + grasped + grasped * align + grasped * lower + 2 * inserted) / 6 };
  },
  createExpert: createPegInsertionExpert,
};

/** The task as a plugin (DESIGN.md §13): the default export every task module has. */
export default armTask(pegInsertionTask);
