/**
 * The grasp-and-carry script behind the lift and pick-cube experts. Phases,
 * each readable from the state observation (TCP − cube, jaw gap):
 *   approach: hover 6 cm above the cube, jaws open;
 *   descend:  lower the TCP to the cube centre, jaws open;
 *   close:    hold still and close the jaws for a few steps;
 *   carry:    jaws closed, move the cube to the carry target.
 * If the cube slips out while carrying, the script starts again from approach.
 */
import type { Rng } from '../../core/envs/task-api';
import type { ArmExpert as Expert } from './arm-task';
import type { ArmView as TaskView } from './arm-view';
import { distance3, objectPosition, tcpPosition } from './robot-state';
import { addActionNoise, moveToward } from './expert-common';

export type GraspPhase = 'approach' | 'descend' | 'close' | 'carry';

const HOVER_HEIGHT = 0.06;
const CLOSE_STEPS = 4;

/**
 * carryTarget writes the desired TCP position [3] while carrying, given the
 * TCP and cube positions; it returns nothing.
 */
export type CarryTarget = (view: TaskView, tcp: Float64Array, cube: Float64Array, out: Float64Array) => void;

export function createGraspExpert(noise: number, rng: Rng, carryTarget: CarryTarget): Expert & { phase(): GraspPhase } {
  const tcp = new Float64Array(3);
  const cube = new Float64Array(3);
  const target = new Float64Array(3);
  let phase: GraspPhase = 'approach';
  let closeSteps = 0;
  return {
    phase: () => phase,
    reset() {
      phase = 'approach';
      closeSteps = 0;
    },
    act(view, out) {
      tcpPosition(view, tcp);
      objectPosition(view, cube);
      const horizontalError = Math.hypot(cube[0] - tcp[0], cube[1] - tcp[1]);
      if (phase === 'carry' && distance3(tcp, cube) > 0.04) phase = 'approach';
      if (phase === 'approach') {
        target.set([cube[0], cube[1], cube[2] + HOVER_HEIGHT]);
        if (horizontalError < 0.01 && Math.abs(target[2] - tcp[2]) < 0.02) phase = 'descend';
      }
      if (phase === 'descend') {
        if (horizontalError > 0.025) phase = 'approach';
        else {
          target.set(cube);
          if (horizontalError < 0.01 && Math.abs(cube[2] - tcp[2]) < 0.008) {
            phase = 'close';
            closeSteps = 0;
          }
        }
      }
      if (phase === 'close') {
        target.set([cube[0], cube[1], cube[2]]);
        closeSteps++;
        if (closeSteps > CLOSE_STEPS) phase = 'carry';
        moveToward(tcp, target, -1, out, 0.5);
      } else if (phase === 'carry') {
        carryTarget(view, tcp, cube, target);
        moveToward(tcp, target, -1, out);
      } else {
        moveToward(tcp, target, 1, out);
      }
      addActionNoise(out, noise, rng);
    },
  };
}
