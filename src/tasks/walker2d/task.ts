/**
 * walker2d: Gymnasium's Walker2d-v5 (DESIGN.md §14) on our own scene. Walk forward on two legs
 * with torque control (6 motors, actions in [-1, 1]); no success rule, runs rank by return.
 * - Observation (17): qpos without the root x (8), qvel clipped to ±10 (9).
 * - Reward: forward velocity of the root x over one control step (weight 1) + 1 while healthy
 *   − 1e-3 · Σ action².
 * - Healthy: 0.8 < z = qpos[1] < 2 and -1 < angle = qpos[2] < 1; an unhealthy state terminates.
 * - Reset: the default pose and zero velocity, each qpos and qvel entry plus U(-5e-3, 5e-3).
 * - 4 physics steps of 2 ms per action; episodes are truncated at 1000 steps.
 */
import { defineTask, type TaskView } from '../../core/envs/task-api';
import { addUniformNoise, controlCost, torqueControl, positionsSlice, velocitiesSlice, forwardVelocity } from '../kit/locomotion';
import { WALKER_TIMESTEP, walker2dMjcf } from './scene';

export const WALKER2D_V5 = {
  frameSkip: 4,
  forwardRewardWeight: 1,
  ctrlCostWeight: 1e-3,
  healthyReward: 1,
  healthyZRange: [0.8, 2],
  healthyAngleRange: [-1, 1],
  resetNoiseScale: 5e-3,
} as const;

const NQ = 9;
const NV = 9;
const DT = WALKER_TIMESTEP * WALKER2D_V5.frameSkip;

/** Gymnasium's is_healthy for the walker. */
export function walkerHealthy(view: TaskView): boolean {
  const z = view.arrays.qpos[1];
  const angle = view.arrays.qpos[2];
  return z > WALKER2D_V5.healthyZRange[0] && z < WALKER2D_V5.healthyZRange[1] && angle > WALKER2D_V5.healthyAngleRange[0] && angle < WALKER2D_V5.healthyAngleRange[1];
}

export default defineTask({
  name: 'walker2d',
  doc: "Walk forward on two legs (Gymnasium's Walker2d-v5: torque control, no success rule).",
  scene: walker2dMjcf,
  control: torqueControl(6),
  frameSkip: WALKER2D_V5.frameSkip,
  maxEpisodeSteps: 1000,
  observation: [
    positionsSlice(NQ, 1, 'rootz (m), rooty (rad), right thigh, leg, foot, left thigh, leg, foot angles (rad)'),
    velocitiesSlice(NV, 'rootx, rootz (m/s), rooty and the six leg joints (rad/s), each clipped to ±10', 10),
  ],
  // state[0]: the root's x after the previous step, for the forward velocity.
  stateSize: 1,
  // One kinematic tree: island discovery costs 3-17% of a step and changes no bits (scene.test.ts).
  islands: false,
  reset(view, rng) {
    addUniformNoise(view.arrays.qpos, WALKER2D_V5.resetNoiseScale, rng);
    addUniformNoise(view.arrays.qvel, WALKER2D_V5.resetNoiseScale, rng);
    view.state[0] = view.arrays.qpos[0];
  },
  step(view) {
    const velocity = forwardVelocity(view, DT);
    const healthy = walkerHealthy(view);
    const forward = WALKER2D_V5.forwardRewardWeight * velocity;
    const survive = healthy ? WALKER2D_V5.healthyReward : 0;
    const ctrl = controlCost(view, WALKER2D_V5.ctrlCostWeight);
    return { reward: forward + survive - ctrl, terminated: !healthy, info: { reward_forward: forward, reward_ctrl: -ctrl, reward_survive: survive, x_velocity: velocity } };
  },
  render: { camera: { position: [0, -4, 1.2], target: [0, 0, 1] }, trackBody: 'torso' },
});
