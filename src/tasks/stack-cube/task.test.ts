import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from '../../core/envs/mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import type { VectorEnv } from '../../core/envs/vector-env';
import { withVectorEnv } from '../../core/envs/fixtures/with-vector-env';
import { createRng } from '../../core/random';
import { armScene } from '../kit/arm-scene';
import { armView } from '../kit/arm-view';
import { FINGER_OPEN } from '../kit/robot-mjcf';
import { distance3, objectPosition, tcpPosition } from '../kit/robot-state';
import { STACK_CUBE_CENTER, STACK_CUBE_HALF_RANGE, STACK_MIN_SEPARATION, stackCubeSucceeded, stackCubeTask } from './task';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

/** The arm's ids and addresses in the env's scene. */
const armOf = (env: VectorEnv) => armScene(mj, env.scene.model);

const GREEN = [0.5, 0, 0.02] as const;

interface Placement {
  /** Red centre minus the resting-on-top position (m). */
  offset?: [number, number, number];
  /** Linear velocity of the red / green free joint (m/s). */
  redVelocity?: [number, number, number];
  greenVelocity?: [number, number, number];
  /** Each finger's slide (m); the reset leaves them open at FINGER_OPEN. */
  finger?: number;
}

/**
 * Resets env 0 (the arm at home, TCP ~0.25 m above the table, far from both cubes), puts the
 * green cube at GREEN and the red one on top of it plus `offset`, and evaluates.
 */
function evaluatePlaced(env: VectorEnv, placement: Placement = {}) {
  env.reset([42]);
  const view = armView(env.env(0));
  const qpos = view.data.qpos as Float64Array;
  const qvel = view.data.qvel as Float64Array;
  const { objectQposAdr: red, supportQposAdr: green, objectQvelAdr: redVel, supportQvelAdr: greenVel, fingerQposAdr } = view.scene;
  const offset = placement.offset ?? [0, 0, 0];
  qpos.set([...GREEN, 1, 0, 0, 0], green);
  qpos.set([GREEN[0] + offset[0], GREEN[1] + offset[1], GREEN[2] + 0.04 + offset[2], 1, 0, 0, 0], red);
  qpos[fingerQposAdr] = qpos[fingerQposAdr + 1] = placement.finger ?? FINGER_OPEN;
  qvel.fill(0);
  qvel.set(placement.redVelocity ?? [0, 0, 0], redVel);
  qvel.set(placement.greenVelocity ?? [0, 0, 0], greenVel);
  mj.mj_forward(env.scene.model, view.data);
  return { view, evaluation: stackCubeTask.evaluate(view) };
}

describe('stack-cube success and dense reward on hand-placed states', () => {
  it('red resting centred on green with the jaws open away: success, dense 1', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      const { view, evaluation } = evaluatePlaced(env);
      expect(evaluation).toEqual({ success: true, denseReward: 1 });
      expect(stackCubeSucceeded(view)).toBe(true);
      // Just inside the tolerances (1 cm lateral, 5 mm height) still counts.
      expect(evaluatePlaced(env, { offset: [0.009, 0, 0.004] }).evaluation.success).toBe(true);
    });
  });

  it('red held 3 cm above green is not stacked; only the reach term pays', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      const { view, evaluation } = evaluatePlaced(env, { offset: [0, 0, 0.03] });
      expect(evaluation.success).toBe(false);
      // Not placed, not grasped: dense = reach / 6 with reach = 1 − tanh(10·|TCP − red|).
      const distance = distance3(tcpPosition(view, new Float64Array(3)), objectPosition(view, new Float64Array(3)));
      expect(evaluation.denseReward).toBeCloseTo((1 - Math.tanh(10 * distance)) / 6, 6);
    });
  });

  it('red on top but 1.5 cm off-centre is not stacked', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      expect(evaluatePlaced(env, { offset: [0.015, 0, 0] }).evaluation.success).toBe(false);
      expect(evaluatePlaced(env, { offset: [0, -0.011, 0] }).evaluation.success).toBe(false);
    });
  });

  it('red on top but a cube moving is not stacked; the still term lowers the reward', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      const moving = evaluatePlaced(env, { redVelocity: [0.1, 0, 0] }).evaluation;
      expect(moving.success).toBe(false);
      // Placed and released (gap 8 cm ≥ 5 cm, so release = 1), max cube speed 0.1 m/s:
      // release = 1: dense = 1/2 + 1·(1 + 1 − tanh(10·0.1)) / 8 = 3/4 − tanh(1) / 8 ≈ 0.65480.
      expect(moving.denseReward).toBeCloseTo(0.75 - Math.tanh(1) / 8, 6);
      expect(evaluatePlaced(env, { greenVelocity: [0, 0, -0.06] }).evaluation.success).toBe(false);
      expect(evaluatePlaced(env, { redVelocity: [0, 0.04, 0] }).evaluation.success).toBe(true);
    });
  });

  it('red on top with the jaws nearly closed has not been let go', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      // Jaw gap 2 × 0.02 = 4 cm: under the 5 cm release gap.
      const closed = evaluatePlaced(env, { finger: 0.02 }).evaluation;
      expect(closed.success).toBe(false);
      // Not grasped (pads far from the cube): release = 0.04 / 0.05 = 0.8, still = 1 → 1/2 + 0.8·(1 + 1)/8 = 0.7.
      expect(closed.denseReward).toBeCloseTo(0.7, 6);
    });
  });
});

describe('stack-cube reset', () => {
  it('is deterministic per seed and differs across seeds', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      const qposOf = () => Float64Array.from(env.env(0).data.qpos as Float64Array);
      const first = env.reset([7]);
      const firstQpos = qposOf();
      const again = env.reset([7]);
      expect([...again]).toEqual([...first]);
      expect([...qposOf()]).toEqual([...firstQpos]);
      env.reset([8]);
      const other = qposOf();
      const { objectQposAdr: red, supportQposAdr: green } = armOf(env);
      expect(other.slice(red, red + 7)).not.toEqual(firstQpos.slice(red, red + 7));
      expect(other.slice(green, green + 7)).not.toEqual(firstQpos.slice(green, green + 7));
    });
  });

  it('places both cubes flat on the table, in range and at least STACK_MIN_SEPARATION apart', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      const { objectQposAdr, supportQposAdr } = armOf(env);
      let closest = Infinity;
      for (let seed = 0; seed < 200; seed++) {
        env.reset([seed]);
        const qpos = env.env(0).data.qpos as Float64Array;
        for (const adr of [objectQposAdr, supportQposAdr]) {
          for (const axis of [0, 1] as const) {
            expect(Math.abs(qpos[adr + axis] - STACK_CUBE_CENTER[axis])).toBeLessThanOrEqual(STACK_CUBE_HALF_RANGE[axis]);
          }
          expect(qpos[adr + 2]).toBe(0.02);
          // Yaw only: w² + z² = 1.
          expect(Math.hypot(qpos[adr + 3], qpos[adr + 6])).toBeCloseTo(1, 12);
        }
        closest = Math.min(closest, Math.hypot(qpos[objectQposAdr] - qpos[supportQposAdr], qpos[objectQposAdr + 1] - qpos[supportQposAdr + 1]));
      }
      expect(closest).toBeGreaterThanOrEqual(STACK_MIN_SEPARATION);
      expect(armView(env.env(0)).episode.objectRestZ).toBe(0.02);
    });
  });

  it('writes the documented state slices', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      const obs = env.reset([3]);
      const slices = env.config.obsSpec.slices;
      const byName = (name: string) => {
        const entry = slices.find((candidate) => candidate.name === name)!;
        return Array.from(obs.subarray(entry.start, entry.start + entry.dim));
      };
      const taskSlices = stackCubeTask.taskStateSlices.map((entry) => [entry.name, entry.dim]);
      expect(taskSlices).toEqual([['cube_pos', 3], ['cube_quat', 4], ['tcp_to_cube', 3], ['base_cube_pos', 3], ['base_cube_quat', 4], ['cube_to_base_cube', 3]]);
      const qpos = env.env(0).data.qpos as Float64Array;
      const { objectQposAdr: red, supportQposAdr: green } = armOf(env);
      const f32 = (values: ArrayLike<number>) => Array.from(Float32Array.from(values));
      expect(byName('base_cube_pos')).toEqual(f32(qpos.slice(green, green + 3)));
      expect(byName('base_cube_quat')).toEqual(f32(qpos.slice(green + 3, green + 7)));
      const expected = [0, 1, 2].map((axis) => qpos[green + axis] - qpos[red + axis]);
      byName('cube_to_base_cube').forEach((value, axis) => expect(value).toBeCloseTo(expected[axis], 6));
      expect(stackCubeTask.pointcloudExtraSlices).toEqual([]);
    });
  });
});

describe('stack-cube point cloud', () => {
  it('has points on both cubes and no task extras', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1, obsMode: 'pointcloud', numPoints: 256 }, (env) => {
      const obs = env.reset([5]);
      const qpos = env.env(0).data.qpos as Float64Array;
      // A point on a 4 cm cube's surface lies within half a space diagonal (≈ 3.46 cm) of its centre.
      const pointsNear = (adr: number) => {
        let count = 0;
        for (let point = 0; point < 256; point++) {
          const dx = obs[point * 3] - qpos[adr], dy = obs[point * 3 + 1] - qpos[adr + 1], dz = obs[point * 3 + 2] - qpos[adr + 2];
          if (Math.hypot(dx, dy, dz) < 0.035) count++;
        }
        return count;
      };
      expect(pointsNear(armOf(env).objectQposAdr)).toBeGreaterThanOrEqual(16);
      expect(pointsNear(armOf(env).supportQposAdr)).toBeGreaterThanOrEqual(16);
      expect(env.config.obsSpec.slices.map((entry) => entry.name)).toEqual(['points', 'joint_qpos', 'gripper_qpos', 'tcp_pos']);
    });
  });
});

describe('stack-cube episodes', () => {
  it('does not grow the wasm heap over 200 expert episodes', () => {
    withVectorEnv(mj, { task: 'stack-cube', numEnvs: 1 }, (env) => {
      const view = armView(env.env(0));
      const heapBytes = () => (view.data.qpos as Float64Array).buffer.byteLength;
      const action = new Float32Array(4);
      let successes = 0;
      const runEpisode = (seed: number) => {
        const expert = stackCubeTask.createExpert(0.1, createRng(seed));
        expert.reset();
        env.reset([seed]);
        for (let stepIndex = 0; stepIndex < env.config.maxEpisodeSteps; stepIndex++) {
          expert.act(view, action);
          const result = env.step(action);
          if (result.success[0]) successes++;
          if (result.terminated[0] || result.truncated[0]) break;
        }
        env.drainEpisodes();
      };
      runEpisode(0);
      const before = heapBytes();
      for (let episode = 1; episode <= 200; episode++) runEpisode(episode);
      expect(heapBytes()).toBe(before);
      // Noise 0.1 barely hurts the expert.
      expect(successes).toBeGreaterThanOrEqual(190);
    });
  });
});
