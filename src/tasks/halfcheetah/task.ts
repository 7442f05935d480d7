/**
 * halfcheetah: Gymnasium's HalfCheetah-v5 (DESIGN.md §14) on our own scene. Run forward with
 * torque control (6 motors, actions in [-1, 1]); no success rule and no termination, runs rank by
 * return.
 * - Observation (17): qpos without the root x (8), qvel (9), unclipped.
 * - Reward: forward velocity of the root x over one control step (weight 1) − 0.1 · Σ action².
 * - Reset: the default pose plus U(-0.1, 0.1) on each qpos entry; zero velocity plus 0.1 · N(0, 1)
 *   on each qvel entry.
 * - 5 physics steps of 10 ms per action; episodes are truncated at 1000 steps.
 */
import { defineTask } from '../../core/envs/task-api';
import { addNormalNoise, addUniformNoise, controlCost, positionsSlice, torqueControl, velocitiesSlice, forwardVelocity } from '../kit/locomotion';
import { HALFCHEETAH_TIMESTEP, halfCheetahMjcf } from './scene';

export const HALFCHEETAH_V5 = {
  frameSkip: 5,
  forwardRewardWeight: 1,
  ctrlCostWeight: 0.1,
  resetNoiseScale: 0.1,
} as const;

const NQ = 9;
const NV = 9;
const DT = HALFCHEETAH_TIMESTEP * HALFCHEETAH_V5.frameSkip;

export default defineTask({
  name: 'halfcheetah',
  doc: "Run forward on a planar cheetah (Gymnasium's HalfCheetah-v5: torque control, no success rule, no termination).",
  scene: halfCheetahMjcf,
  control: torqueControl(6),
  frameSkip: HALFCHEETAH_V5.frameSkip,
  maxEpisodeSteps: 1000,
  observation: [
    positionsSlice(NQ, 1, 'rootz (m), rooty (rad), back thigh, shin, foot, front thigh, shin, foot angles (rad)'),
    velocitiesSlice(NV, 'rootx, rootz (m/s), rooty and the six leg joints (rad/s)'),
  ],
  // state[0]: the root's x after the previous step, for the forward velocity.
  stateSize: 1,
  // One kinematic tree: island discovery costs 3-17% of a step and changes no bits (scene.test.ts).
  islands: false,
  reset(view, rng) {
    addUniformNoise(view.arrays.qpos, HALFCHEETAH_V5.resetNoiseScale, rng);
    addNormalNoise(view.arrays.qvel, HALFCHEETAH_V5.resetNoiseScale, rng);
    view.state[0] = view.arrays.qpos[0];
  },
  step(view) {
    const velocity = forwardVelocity(view, DT);
    const forward = HALFCHEETAH_V5.forwardRewardWeight * velocity;
    const ctrl = controlCost(view, HALFCHEETAH_V5.ctrlCostWeight);
    return { reward: forward - ctrl, terminated: false, info: { reward_forward: forward, reward_ctrl: -ctrl, x_velocity: velocity } };
  },
  render: { camera: { position: [0, -4, 0.8], target: [0, 0, 0.5] }, trackBody: 'torso' },
});
