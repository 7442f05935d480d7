/**
 * ant: Gymnasium's Ant-v5 (DESIGN.md §14) on our own scene. Walk forward (+x) on four legs with
 * torque control (8 motors, actions in [-1, 1]); no success rule, runs rank by return.
 * - Observation (105): qpos without the torso's x and y (13), qvel (14), and the external contact
 *   wrench on each of the 13 bodies (cfrc_ext, 6 each, clipped to [-1, 1]) as v5 includes by default.
 * - Reward: the torso's x velocity over one control step (weight 1) + 1 while healthy
 *   − 0.5 · Σ action² − 5e-4 · Σ clip(cfrc_ext, -1, 1)².
 * - Healthy: every qpos and qvel entry finite and 0.2 ≤ torso z ≤ 1; an unhealthy state terminates.
 * - Reset: the default pose plus U(-0.1, 0.1) on each qpos entry (the quaternion included, as v5
 *   does); zero velocity plus 0.1 · N(0, 1) on each qvel entry.
 * - 5 physics steps of 10 ms per action; episodes are truncated at 1000 steps.
 *
 * As in Gymnasium, the torso position for the velocity is the body's xpos as MuJoCo leaves it
 * after the physics steps, and the contact wrenches are computed by mj_rnePostConstraint then.
 */
import { defineTask, type TaskView } from '../../core/envs/task-api';
import { addNormalNoise, addUniformNoise, controlCost, positionsSlice, stateFinite, torqueControl, velocitiesSlice } from '../kit/locomotion';
import { ANT_TIMESTEP, antMjcf } from './scene';

export const ANT_V5 = {
  frameSkip: 5,
  forwardRewardWeight: 1,
  ctrlCostWeight: 0.5,
  contactCostWeight: 5e-4,
  healthyReward: 1,
  healthyZRange: [0.2, 1],
  contactForceRange: [-1, 1],
  resetNoiseScale: 0.1,
} as const;

const NQ = 15;
const NV = 14;
/** Bodies besides the world; the main body (the torso) is body 1. */
const BODIES = 13;
const TORSO = 1;
const DT = ANT_TIMESTEP * ANT_V5.frameSkip;

function clipForce(value: number): number {
  return Math.min(ANT_V5.contactForceRange[1], Math.max(ANT_V5.contactForceRange[0], value));
}

/** cfrc_ext [nbody × 6], read fresh (the bindings' view of it is not cached). */
function contactWrenches(view: TaskView): Float64Array {
  return view.data.cfrc_ext as Float64Array;
}

/** Gymnasium's is_healthy for the ant. */
export function antHealthy(view: TaskView): boolean {
  const z = view.arrays.qpos[2];
  return stateFinite(view) && z >= ANT_V5.healthyZRange[0] && z <= ANT_V5.healthyZRange[1];
}

export default defineTask({
  name: 'ant',
  doc: "Walk forward on four legs (Gymnasium's Ant-v5: torque control, no success rule).",
  scene: antMjcf,
  control: torqueControl(8),
  frameSkip: ANT_V5.frameSkip,
  maxEpisodeSteps: 1000,
  observation: [
    positionsSlice(NQ, 2, 'torso z (m), torso quaternion (w, x, y, z), hip and ankle angles of the four legs (rad)'),
    velocitiesSlice(NV, 'torso linear (m/s) and angular (rad/s) velocity, then the eight leg joints (rad/s)'),
    {
      name: 'cfrc_ext',
      dim: BODIES * 6,
      doc: 'external contact wrench (torque, force) on each body but the world, each entry clipped to [-1, 1]',
      read(view, out, offset) {
        const wrenches = contactWrenches(view);
        for (let index = 0; index < BODIES * 6; index++) out[offset + index] = clipForce(wrenches[6 + index]);
      },
    },
  ],
  // state[0..1]: the torso's x and y after the previous step, for the velocity.
  stateSize: 2,
  // One kinematic tree: island discovery costs 3-17% of a step and changes no bits (scene.test.ts).
  islands: false,
  reset(view, rng) {
    addUniformNoise(view.arrays.qpos, ANT_V5.resetNoiseScale, rng);
    addNormalNoise(view.arrays.qvel, ANT_V5.resetNoiseScale, rng);
    // A free joint puts its body where qpos says: the torso's xpos after the env's forward pass.
    view.state[0] = view.arrays.qpos[0];
    view.state[1] = view.arrays.qpos[1];
  },
  step(view) {
    view.mj.mj_rnePostConstraint(view.model, view.data);
    const xpos = view.data.xpos as Float64Array;
    const x = xpos[3 * TORSO];
    const y = xpos[3 * TORSO + 1];
    const xVelocity = (x - view.state[0]) / DT;
    const yVelocity = (y - view.state[1]) / DT;
    view.state[0] = x;
    view.state[1] = y;
    const wrenches = contactWrenches(view);
    let contactSum = 0;
    for (let index = 0; index < wrenches.length; index++) contactSum += clipForce(wrenches[index]) ** 2;
    const contact = ANT_V5.contactCostWeight * contactSum;
    const healthy = antHealthy(view);
    const forward = ANT_V5.forwardRewardWeight * xVelocity;
    const survive = healthy ? ANT_V5.healthyReward : 0;
    const ctrl = controlCost(view, ANT_V5.ctrlCostWeight);
    return {
      reward: forward + survive - (ctrl + contact),
      terminated: !healthy,
      info: { reward_forward: forward, reward_ctrl: -ctrl, reward_contact: -contact, reward_survive: survive, x_velocity: xVelocity, y_velocity: yVelocity },
    };
  },
  render: { camera: { position: [0, -5, 3], target: [0, 0, 0.5] }, trackBody: 'torso' },
});
