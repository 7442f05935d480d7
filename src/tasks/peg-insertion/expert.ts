/**
 * peg-insertion expert, a closed-loop script whose phases each read from the
 * state observation (tcp_to_peg, peg_to_hole, jaw gap):
 *   approach: hover HOVER_HEIGHT above the grasp point, jaws open;
 *   descend:  lower the TCP onto the grasp point (near the peg top), jaws open, pausing whenever
 *             it is more than DESCEND_TOLERANCE off the peg axis;
 *   close:    hold the TCP where it stopped and close the jaws for CLOSE_STEPS steps (they square
 *             a yawed peg up);
 *   lift:     raise the peg straight up, slowly while it is within LIFT_SLOW_HEIGHT of the table,
 *             holding the TCP's x and y where it closed: a sideways drift while the peg still
 *             drags on the table would tip it in the jaws;
 *   carry:    keep the peg bottom CARRY_CLEARANCE above the fixture's top and move it over the
 *             hole at most CARRY_STEP per step, aiming the peg bottom (not the TCP) at the hole axis;
 *   insert:   once within ALIGN_TOLERANCE of the axis, descend (fast to SLOW_HEIGHT above the
 *             rim, then DESCENT_STEP per step) while still correcting laterally, until seated
 *             (success ends the episode). Until the peg has entered, a peg more than HOLD_OFFSET
 *             off the axis goes no lower than RIM_PRESS below the rim (it rests lightly on the
 *             low-friction wall top while the lateral correction slides it over the opening,
 *             where it drops in), and one more than PRESS_OFFSET off waits RIM_HOVER above it.
 * In carry and insert an integral term cancels the arm's steady sideways lag while it moves
 * vertically. If the peg slips out of the jaws, the script starts again from approach; a peg
 * knocked over (tilted more than 30°) is not grasped again, the arm hovers above it.
 */
import type { Rng } from '../../core/envs/task-api';
import type { ArmExpert as Expert } from '../kit/arm-task';
import { distance3, gripperGap, tcpPosition } from '../kit/robot-state';
import { FINGER_OPEN } from '../kit/robot-mjcf';
import { addActionNoise, moveToward } from '../kit/expert-common';
import { fixtureTop, lateralToHole, pegAxis, pegBottom, pegGraspPoint } from './peg-state';

export type PegPhase = 'approach' | 'descend' | 'close' | 'lift' | 'carry' | 'insert';

/** TCP hover height above the grasp point before descending (m). */
const HOVER_HEIGHT = 0.06;
/** Approach → descend once the TCP is within these horizontal and vertical distances of the hover point (m). */
const HOVER_TOLERANCE_XY = 0.01;
const HOVER_TOLERANCE_Z = 0.02;
/** Descend → approach when the TCP is farther than this horizontally from the grasp point (m). */
const DESCEND_ABORT = 0.025;
/** Descend → close once the TCP is within this distance of the grasp point along each of xy and z (m). */
const CLOSE_TOLERANCE = 0.008;
/** Smallest vertical component of the peg axis (cos 30°) for the script to try a grasp; a peg lying down is left alone. */
const MIN_GRASP_UPRIGHT = Math.cos(Math.PI / 6);
/** Horizontal TCP offset from the grasp point beyond which the descent pauses (m). */
const DESCEND_TOLERANCE = 0.01;
/** Steps the jaws close while the TCP holds still. */
const CLOSE_STEPS = 5;
/** Largest commanded TCP rise per control step while the peg bottom is within LIFT_SLOW_HEIGHT of the table (m). */
const LIFT_STEP = 0.01;
const LIFT_SLOW_HEIGHT = 0.01;
/** Height of the peg bottom above the fixture's top while carrying (m). */
const CARRY_CLEARANCE = 0.03;
/** Lift → carry once the peg bottom is this fraction of CARRY_CLEARANCE above the fixture's top. */
const LIFT_DONE_FRACTION = 0.6;
/** Carrying pauses its sideways move while the peg bottom is less than this above the fixture's top (m). */
const CARRY_MIN_CLEARANCE = 0.015;
/** Largest commanded sideways TCP step while carrying (m per control step). */
const CARRY_STEP = 0.02;
/** Lateral offset of the peg bottom from the hole axis that starts the descent (m). */
const ALIGN_TOLERANCE = 0.005;
/** Lateral offset beyond which insert goes back to carry, clear of the rim (m). */
const REALIGN_OFFSET = 0.025;
/** Lateral offset within which the peg is let down past the rim (m), inside the 2 mm clearance. */
const HOLD_OFFSET = 0.0015;
/** Lateral offset within which a not yet aligned peg may rest on the rim (m); farther off, its edge would catch on the wall top. */
const PRESS_OFFSET = 0.004;
/** How far below the rim such a peg is pressed (m): a light push, so it drops in once over the opening. */
const RIM_PRESS = 0.002;
/** Height above the rim at which a peg more than PRESS_OFFSET off the axis waits (m). */
const RIM_HOVER = 0.005;
/** The peg counts as entered once its bottom is this far below the fixture's top (m). */
const ENTERED_DEPTH = 0.003;
/** Commanded TCP descent per control step while inserting (m). */
const DESCENT_STEP = 0.012;
/** Commanded TCP descent per control step while the peg bottom is more than SLOW_HEIGHT above the rim (m). */
const APPROACH_STEP = 0.03;
const SLOW_HEIGHT = 0.01;
/** Integral gain on the peg bottom's lateral error near the hole (per step), and its active range and cap (m). */
const INTEGRAL_GAIN = 0.3;
const INTEGRAL_RANGE = 0.01;
const INTEGRAL_CAP = 0.005;
/** TCP farther than this from the grasp point while holding means the peg slipped out (m). */
const SLIP_DISTANCE = 0.03;
/** A jaw gap below this while holding means the jaws shut on nothing (m). */
const JAWS_SHUT_GAP = 0.2 * FINGER_OPEN;
/** Fraction of the TCP error corrected per step while the jaws close: gentle, so the peg is not pushed. */
const CLOSE_GAIN = 0.5;

export function createPegInsertionExpert(noise: number, rng: Rng): Expert & { phase(): PegPhase } {
  const tcp = new Float64Array(3);
  const grasp = new Float64Array(3);
  const bottom = new Float64Array(3);
  const pegUp = new Float64Array(3);
  const target = new Float64Array(3);
  /** TCP position when the jaws began to close. */
  const anchor = new Float64Array(3);
  /** Accumulated lateral correction (m, x and y). */
  const integral = new Float64Array(2);
  let phase: PegPhase = 'approach';
  let closeSteps = 0;
  return {
    phase: () => phase,
    reset() {
      phase = 'approach';
      closeSteps = 0;
    },
    act(view, out) {
      tcpPosition(view, tcp);
      pegGraspPoint(view, grasp);
      pegBottom(view, bottom);
      const hole = view.episode.goal;
      const holding = phase === 'lift' || phase === 'carry' || phase === 'insert';
      // Jaws shut on nothing, or the peg left the hand: start over.
      if (holding && (distance3(tcp, grasp) > SLIP_DISTANCE || gripperGap(view) < JAWS_SHUT_GAP)) phase = 'approach';
      const graspError = Math.hypot(grasp[0] - tcp[0], grasp[1] - tcp[1]);
      // A peg knocked over cannot be grasped from above reliably: hover over it instead of pressing it into the table.
      const graspable = pegAxis(view, pegUp)[2] > MIN_GRASP_UPRIGHT;
      if (phase === 'descend' && !graspable) phase = 'approach';
      if (phase === 'approach') {
        target.set([grasp[0], grasp[1], grasp[2] + HOVER_HEIGHT]);
        if (graspable && graspError < HOVER_TOLERANCE_XY && Math.abs(target[2] - tcp[2]) < HOVER_TOLERANCE_Z) phase = 'descend';
      }
      if (phase === 'descend') {
        // Lower only while centred over the peg, so a pad never lands on its top and tips it.
        target.set([grasp[0], grasp[1], graspError < DESCEND_TOLERANCE ? grasp[2] : tcp[2]]);
        if (graspError > DESCEND_ABORT) phase = 'approach';
        else if (graspError < CLOSE_TOLERANCE && Math.abs(grasp[2] - tcp[2]) < CLOSE_TOLERANCE) {
          phase = 'close';
          closeSteps = 0;
          anchor.set(tcp);
          integral.fill(0);
        }
      }
      const top = fixtureTop(view);
      const lateral = lateralToHole(view, bottom);
      if (phase === 'lift' && bottom[2] > top + LIFT_DONE_FRACTION * CARRY_CLEARANCE) phase = 'carry';
      const entered = bottom[2] < top - ENTERED_DEPTH;
      if (phase === 'carry' && lateral < ALIGN_TOLERANCE && bottom[2] > top + CARRY_MIN_CLEARANCE) phase = 'insert';
      if (phase === 'insert' && !entered && lateral > REALIGN_OFFSET) phase = 'carry';
      if (phase === 'close') {
        closeSteps++;
        if (closeSteps > CLOSE_STEPS) phase = 'lift';
        moveToward(tcp, anchor, -1, out, CLOSE_GAIN);
      } else if (phase === 'lift') {
        target[0] = anchor[0];
        target[1] = anchor[1];
        const rise = top + CARRY_CLEARANCE - bottom[2];
        target[2] = tcp[2] + (bottom[2] < hole[2] + LIFT_SLOW_HEIGHT ? Math.min(LIFT_STEP, rise) : rise);
        moveToward(tcp, target, -1, out);
      } else if (phase === 'carry' || phase === 'insert') {
        // The peg hangs off the TCP: move the TCP so the peg bottom lands on the hole axis.
        for (let axis = 0; axis < 2; axis++) {
          const error = hole[axis] - bottom[axis];
          if (lateral < INTEGRAL_RANGE) integral[axis] = Math.max(-INTEGRAL_CAP, Math.min(INTEGRAL_CAP, integral[axis] + INTEGRAL_GAIN * error));
          target[axis] = tcp[axis] + error + integral[axis];
        }
        if (phase === 'carry') {
          target[2] = tcp[2] + top + CARRY_CLEARANCE - bottom[2];
          // The arm sags when it moves fast sideways: cap the sideways step, and stop it
          // while the peg, not yet over the opening, has sunk toward the walls.
          const step = Math.hypot(target[0] - tcp[0], target[1] - tcp[1]);
          const scale = bottom[2] < top + CARRY_MIN_CLEARANCE && lateral > REALIGN_OFFSET ? 0 : Math.min(1, CARRY_STEP / step);
          for (let axis = 0; axis < 2; axis++) target[axis] = tcp[axis] + scale * (target[axis] - tcp[axis]);
        } else {
          // Lowest bottom height allowed: none once entered or aligned; otherwise rest lightly on
          // the rim when nearly over the opening, or wait just above it.
          const floor = entered || lateral < HOLD_OFFSET ? -Infinity : lateral < PRESS_OFFSET ? top - RIM_PRESS : top + RIM_HOVER;
          const step = bottom[2] > top + SLOW_HEIGHT ? APPROACH_STEP : DESCENT_STEP;
          target[2] = tcp[2] + Math.max(-step, floor - bottom[2]);
        }
        moveToward(tcp, target, -1, out);
      } else {
        moveToward(tcp, target, 1, out);
      }
      addActionNoise(out, noise, rng);
    },
  };
}
