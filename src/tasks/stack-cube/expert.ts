/**
 * stack-cube expert, a closed-loop script whose phases each read from the state
 * observation (tcp_pos, cube_pos, base_cube_pos):
 *   approach: hover HOVER_HEIGHT above the grasp point, jaws open;
 *   descend:  lower the TCP onto the grasp point, GRASP_HEIGHT above the red centre, jaws open;
 *   close:    hold there and close the jaws for CLOSE_STEPS steps (they square a yawed cube up);
 *   lift:     raise the red cube straight up until its bottom is CARRY_CLEARANCE above the green top;
 *   carry:    move it over the green cube at that height;
 *   lower:    once within ALIGN_TOLERANCE laterally, keep centring and descend at most LOWER_STEP
 *             per step while within DESCEND_OFFSET, else hold ALIGN_HOVER above the resting height;
 *             a cube set down within RELEASE_OFFSET of the centre is let go;
 *   release:  hold the TCP where the cube was set down and open the jaws for RELEASE_STEPS steps;
 *   retreat:  rise straight up from there with the jaws open (success, once both cubes are
 *             still, ends the episode). Both hold that x, y rather than the current TCP, so
 *             action noise cannot random-walk the open jaws into the cube.
 * Grasping GRASP_HEIGHT above the centre keeps the pad tips clear of the green cube's top
 * face while placing. If the red cube slips out while carried, or is not on the green one
 * after the release, the script starts again from approach.
 */
import type { Rng } from '../../core/envs/task-api';
import type { ArmExpert as Expert } from '../kit/arm-task';
import { distance3, objectPosition, tcpPosition } from '../kit/robot-state';
import { EXPERT_GAIN, addActionNoise, moveToward } from '../kit/expert-common';
import { CUBE_HALF_SIZE } from '../kit/objects-mjcf';
import { STACK_HEIGHT, baseCubePosition, heightAboveStack, lateralOffset } from './stack-state';

export type StackPhase = 'approach' | 'descend' | 'close' | 'lift' | 'carry' | 'lower' | 'release' | 'retreat';

/** TCP height above the grasp point before descending (m). */
const HOVER_HEIGHT = 0.06;
/** Grasp point above the red centre (m): the pads reach 2.1 cm below the TCP, so their tips stay 1.4 cm above the cube's bottom. */
const GRASP_HEIGHT = 0.015;
/** Horizontal TCP-to-grasp-point error under which the descent starts, and over which it aborts (m). */
const DESCEND_START = 0.01;
const DESCEND_ABORT = 0.025;
/** Vertical TCP-to-grasp-point error under which the jaws close (m). */
const CLOSE_HEIGHT_ERROR = 0.008;
/** Steps the jaws close while the TCP holds still; gain of that hold (fraction of the error per step). */
const CLOSE_STEPS = 5;
const CLOSE_GAIN = 0.5;
/** Red bottom above the green top while carrying (m). */
const CARRY_CLEARANCE = 0.05;
/** Carrying moves sideways only while the red bottom is at least this above the green top (m). */
const CARRY_MIN_CLEARANCE = 0.03;
/** Lateral red-to-green offset that starts lowering, and that sends lowering back to carry (m). */
const ALIGN_TOLERANCE = 0.01;
const REALIGN_OFFSET = 0.025;
/**
 * Lowering descends only while the lateral offset is under DESCEND_OFFSET, and lets go only
 * under RELEASE_OFFSET (m): a margin below the 1 cm success tolerance for the release's jolt.
 */
const DESCEND_OFFSET = 0.01;
const RELEASE_OFFSET = 0.006;
/** While off-centre, lowering holds the red cube this far above its resting height (m). */
const ALIGN_HOVER = 0.01;
/** Largest commanded descent of the red cube per control step while lowering (m). */
const LOWER_STEP = 0.02;
/** Lowering aims this far below the resting height, so the cube settles with a light press (m). */
const LOWER_PRESS = 0.002;
/**
 * Height above the resting height under which the red cube counts as set down (m). A grasp that
 * slid up can leave the pad tips on the green top with the cube a few mm short of it; a drop that
 * small is harmless.
 */
const SET_DOWN_HEIGHT = 0.006;
/** Steps the jaws open while the TCP holds still. */
const RELEASE_STEPS = 4;
/** TCP rise after the release (m). */
const RETREAT_HEIGHT = 0.08;
/** TCP-to-grasp-point distance beyond which a carried cube has slipped out (m). */
const SLIP_DISTANCE = 0.04;
/**
 * After the release, a red cube more than MISPLACED_LATERAL off the green centre, or more than
 * MISPLACED_HEIGHT off its resting height, is picked again (m): just inside the success tolerances.
 */
const MISPLACED_LATERAL = 0.009;
const MISPLACED_HEIGHT = 0.005;

export function createStackCubeExpert(noise: number, rng: Rng): Expert & { phase(): StackPhase } {
  const tcp = new Float64Array(3);
  const red = new Float64Array(3);
  const green = new Float64Array(3);
  const grasp = new Float64Array(3);
  const target = new Float64Array(3);
  /** TCP x, y when the release began. */
  const releaseXY = new Float64Array(2);
  let phase: StackPhase = 'approach';
  let phaseSteps = 0;
  const enter = (next: StackPhase) => {
    phase = next;
    phaseSteps = 0;
  };
  const setTarget = (x: number, y: number, z: number) => {
    target[0] = x;
    target[1] = y;
    target[2] = z;
  };
  /** Writes the TCP target that puts the held red cube's centre at (x, y, z). */
  const aimCube = (x: number, y: number, z: number) => {
    setTarget(x - (red[0] - tcp[0]), y - (red[1] - tcp[1]), z - (red[2] - tcp[2]));
  };
  return {
    phase: () => phase,
    reset() {
      enter('approach');
    },
    act(view, out) {
      tcpPosition(view, tcp);
      objectPosition(view, red);
      baseCubePosition(view, green);
      grasp.set(red);
      grasp[2] += GRASP_HEIGHT;
      const graspError = Math.hypot(grasp[0] - tcp[0], grasp[1] - tcp[1]);
      const offset = lateralOffset(red, green);
      const height = heightAboveStack(red, green);
      const greenTop = green[2] + CUBE_HALF_SIZE;
      const carryZ = greenTop + CARRY_CLEARANCE + CUBE_HALF_SIZE;
      const held = phase === 'lift' || phase === 'carry' || phase === 'lower';
      if (held && distance3(tcp, grasp) > SLIP_DISTANCE) enter('approach');
      if (phase === 'retreat' && (offset > MISPLACED_LATERAL || Math.abs(height) > MISPLACED_HEIGHT)) enter('approach');
      phaseSteps++;
      if (phase === 'approach') {
        target.set(grasp);
        target[2] += HOVER_HEIGHT;
        if (graspError < DESCEND_START && Math.abs(target[2] - tcp[2]) < 0.02) enter('descend');
      }
      if (phase === 'descend') {
        target.set(grasp);
        if (graspError > DESCEND_ABORT) enter('approach');
        else if (graspError < DESCEND_START && Math.abs(grasp[2] - tcp[2]) < CLOSE_HEIGHT_ERROR) enter('close');
      }
      if (phase === 'close') {
        target.set(grasp);
        if (phaseSteps > CLOSE_STEPS) enter('lift');
      }
      if (phase === 'lift') {
        aimCube(red[0], red[1], carryZ);
        target[0] = tcp[0];
        target[1] = tcp[1];
        if (red[2] > carryZ - 0.01) enter('carry');
      }
      if (phase === 'carry') {
        aimCube(green[0], green[1], carryZ);
        if (red[2] - CUBE_HALF_SIZE < greenTop + CARRY_MIN_CLEARANCE) {
          target[0] = tcp[0];
          target[1] = tcp[1];
        }
        if (offset < ALIGN_TOLERANCE) enter('lower');
      }
      if (phase === 'lower') {
        const restZ = green[2] + STACK_HEIGHT;
        const z = offset < DESCEND_OFFSET ? Math.max(restZ - LOWER_PRESS, red[2] - LOWER_STEP) : Math.max(red[2], restZ + ALIGN_HOVER);
        aimCube(green[0], green[1], z);
        if (offset > REALIGN_OFFSET) enter('carry');
        else if (height < SET_DOWN_HEIGHT && offset < RELEASE_OFFSET) {
          enter('release');
          releaseXY[0] = tcp[0];
          releaseXY[1] = tcp[1];
        }
      }
      if (phase === 'release') {
        setTarget(releaseXY[0], releaseXY[1], tcp[2]);
        if (phaseSteps > RELEASE_STEPS) enter('retreat');
      } else if (phase === 'retreat') {
        setTarget(releaseXY[0], releaseXY[1], greenTop + STACK_HEIGHT + RETREAT_HEIGHT);
      }
      const open = phase === 'approach' || phase === 'descend' || phase === 'release' || phase === 'retreat';
      moveToward(tcp, target, open ? 1 : -1, out, phase === 'close' ? CLOSE_GAIN : EXPERT_GAIN);
      addActionNoise(out, noise, rng);
    },
  };
}
