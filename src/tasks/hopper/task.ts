/**
 * hopper: Gymnasium's Hopper-v5 (DESIGN.md §14) on our own scene. Hop forward on one leg with
 * torque control (3 motors, actions in [-1, 1]); no success rule, runs rank by return.
 * - Observation (11): qpos without the root x (5), qvel clipped to ±10 (6).
 * - Reward: forward velocity of the root x over one control step (weight 1) + 1 while healthy
 *   − 1e-3 · Σ action².
 * - Healthy: z = qpos[1] > 0.7, |angle = qpos[2]| < 0.2, every qpos[2:] and qvel entry in
 *   (-100, 100) (all strict); an unhealthy state terminates the episode.
 * - Reset: the model's default pose and zero velocity, each qpos and qvel entry plus U(-5e-3, 5e-3).
 * - 4 physics steps of 2 ms per action; episodes are truncated at 1000 steps.
 */
import { defineTask, type TaskView } from '../../core/envs/task-api';
import { addUniformNoise, controlCost, torqueControl, positionsSlice, velocitiesSlice, forwardVelocity } from '../kit/locomotion';
import { HOPPER_TIMESTEP, hopperMjcf } from './scene';

export const HOPPER_V5 = {
  frameSkip: 4,
  forwardRewardWeight: 1,
  ctrlCostWeight: 1e-3,
  healthyReward: 1,
  healthyStateRange: [-100, 100],
  healthyZRange: [0.7, Infinity],
  healthyAngleRange: [-0.2, 0.2],
  resetNoiseScale: 5e-3,
} as const;

const NQ = 6;
const NV = 6;
const DT = HOPPER_TIMESTEP * HOPPER_V5.frameSkip;

/** Gymnasium's is_healthy for the hopper. */
export function hopperHealthy(view: TaskView): boolean {
  const { qpos, qvel } = view.arrays;
  const [minState, maxState] = HOPPER_V5.healthyStateRange;
  for (let index = 2; index < NQ; index++) if (!(qpos[index] > minState && qpos[index] < maxState)) return false;
  for (let index = 0; index < NV; index++) if (!(qvel[index] > minState && qvel[index] < maxState)) return false;
  const z = qpos[1];
  const angle = qpos[2];
  return z > HOPPER_V5.healthyZRange[0] && z < HOPPER_V5.healthyZRange[1] && angle > HOPPER_V5.healthyAngleRange[0] && angle < HOPPER_V5.healthyAngleRange[1];
}

export default defineTask({
  name: 'hopper',
  doc: "Hop forward on one leg (Gymnasium's Hopper-v5: torque control, no success rule).",
  scene: hopperMjcf,
  control: torqueControl(3),
  frameSkip: HOPPER_V5.frameSkip,
  maxEpisodeSteps: 1000,
  observation: [
    positionsSlice(NQ, 1, 'rootz (m), rooty (rad), thigh, leg, foot angles (rad)'),
    velocitiesSlice(NV, 'rootx, rootz (m/s), rooty, thigh, leg, foot (rad/s), each clipped to ±10', 10),
  ],
  // state[0]: the root's x after the previous step, for the forward velocity.
  stateSize: 1,
  // One kinematic tree: island discovery costs 3-17% of a step and changes no bits (scene.test.ts).
  islands: false,
  reset(view, rng) {
    addUniformNoise(view.arrays.qpos, HOPPER_V5.resetNoiseScale, rng);
    addUniformNoise(view.arrays.qvel, HOPPER_V5.resetNoiseScale, rng);
    view.state[0] = view.arrays.qpos[0];
  },
  step(view) {
    const velocity = forwardVelocity(view, DT);
    const healthy = hopperHealthy(view);
    const forward = HOPPER_V5.forwardRewardWeight * velocity;
    const survive = healthy ? HOPPER_V5.healthyReward : 0;
    const ctrl = controlCost(view, HOPPER_V5.ctrlCostWeight);
    return { reward: forward + survive - ctrl, terminated: !healthy, info: { reward_forward: forward, reward_ctrl: -ctrl, reward_survive: survive, x_velocity: velocity } };
  },
  render: { camera: { position: [0, -4, 1.2], target: [0, 0, 1] }, trackBody: 'torso' },
});
