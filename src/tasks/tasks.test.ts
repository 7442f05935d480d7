import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from '../core/envs/mujoco-types';
import { loadMujocoNode } from '../cli/mujoco-node';
import { VectorEnv } from '../core/envs/vector-env';
import { getTask } from '../core/envs/task-registry';
import { collectExpertDemos } from '../core/envs/expert-rollout';
import { distance3, objectPosition, tcpPosition } from './kit/robot-state';
import { createRng } from '../core/random';
import { ConfigError } from '../core/errors';
import { armView } from './kit/arm-view';
import { armScene } from './kit/arm-scene';
import { BUILT_IN_TASKS } from './index';
import { reachTask } from './reach/task';
import { liftTask } from './lift/task';
import { pickCubeTask } from './pick-cube/task';

const TASK_NAMES = BUILT_IN_TASKS.map((task) => task.name);
/** The arm tasks (DESIGN.md §5): the ones with a scripted expert; the locomotion tasks (§14) have none. */
const ARM_TASK_NAMES = BUILT_IN_TASKS.filter((task) => task.expert !== undefined).map((task) => task.name);

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

/** Resets env 0, lets `edit` change the state, recomputes derived quantities and evaluates. */
function evaluateEdited(env: VectorEnv, edit: (qpos: Float64Array, qvel: Float64Array) => void) {
  const view = env.env(0);
  edit(view.data.qpos as Float64Array, view.data.qvel as Float64Array);
  mj.mj_forward(env.scene.model, view.data);
  return ARM_TASKS[env.config.task].evaluate(armView(view));
}

/** The arm task definitions behind the registered tasks, by name. */
const ARM_TASKS: Record<string, typeof reachTask> = { reach: reachTask, lift: liftTask, 'pick-cube': pickCubeTask };

describe('task registry', () => {
  it('rejects an unknown task and names the allowed values', () => {
    expect(() => getTask('push')).toThrow(ConfigError);
    expect(() => getTask('push')).toThrow(/known tasks: reach, lift, pick-cube/);
  });

  it('prints self-contained MJCF for every task (no includes, no files)', () => {
    for (const name of TASK_NAMES) {
      const { xml, assets } = getTask(name).scene;
      expect(xml).not.toMatch(/<include|file=/);
      expect(assets.size).toBe(0);
      const model = mj.MjModel.from_xml_string(xml);
      // The arm: 7 joints and the two jaws; the locomotion bodies: one motor per joint.
      expect(model.nu).toBe(ARM_TASK_NAMES.includes(name) ? 9 : getTask(name).controls.get(getTask(name).defaultControl)!.dim);
      model.delete();
    }
  });
});

describe('success rules on hand-built states', () => {
  const envs: VectorEnv[] = [];
  afterAll(() => envs.forEach((env) => env.dispose()));
  const make = (task: 'reach' | 'lift' | 'pick-cube') => {
    const env = new VectorEnv(mj, { task, numEnvs: 1 });
    envs.push(env);
    env.reset([42]);
    return env;
  };

  it('reach: TCP within 2.5 cm of the goal', () => {
    const env = make('reach');
    const view = armView(env.env(0));
    const tcp = tcpPosition(view, new Float64Array(3));
    view.episode.goal.set([tcp[0] + 0.024, tcp[1], tcp[2]]);
    const inside = reachTask.evaluate(view);
    expect(inside.success).toBe(true);
    expect(inside.denseReward).toBe(1);
    view.episode.goal.set([tcp[0], tcp[1] + 0.026, tcp[2]]);
    const outside = reachTask.evaluate(view);
    expect(outside.success).toBe(false);
    // dense = 1 − tanh(5 · 0.026) = 1 − tanh(0.13) ≈ 0.87073
    expect(outside.denseReward).toBeCloseTo(1 - Math.tanh(0.13), 6);
  });

  it('lift: cube centre 4 cm above its rest height', () => {
    const env = make('lift');
    const adr = armScene(mj, env.scene.model).objectQposAdr;
    expect(evaluateEdited(env, (qpos) => { qpos[adr + 2] = 0.02 + 0.041; }).success).toBe(true);
    const below = evaluateEdited(env, (qpos) => { qpos[adr + 2] = 0.02 + 0.039; });
    expect(below.success).toBe(false);
    // Not grasped (no pad contact): dense = (reach + 0 + 0) / 3 with reach = 1 − tanh(10·d) < 1.
    expect(below.denseReward).toBeGreaterThan(0);
    expect(below.denseReward).toBeLessThan(1 / 3);
  });

  it('pick-cube: cube within 2.5 cm of the goal and the arm nearly static', () => {
    const env = make('pick-cube');
    const view = armView(env.env(0));
    const adr = armScene(mj, env.scene.model).objectQposAdr;
    const goal = [0.5, 0.05, 0.2];
    view.episode.goal.set(goal);
    const place = (offset: number, jointSpeed: number) => evaluateEdited(env, (qpos, qvel) => {
      qpos[adr] = goal[0] + offset; qpos[adr + 1] = goal[1]; qpos[adr + 2] = goal[2];
      qvel.fill(0);
      qvel[3] = jointSpeed;
    });
    expect(place(0.02, 0).success).toBe(true);
    expect(place(0.02, 0.19).success).toBe(true);
    expect(place(0.02, 0.25).success).toBe(false);
    expect(place(0.03, 0).success).toBe(false);
    const moving = place(0.02, 0.25);
    expect(moving.denseReward).toBeLessThan(1);
  });
});

describe('scripted experts', () => {
  it('every arm task has one', () => {
    expect(ARM_TASK_NAMES).toEqual(['reach', 'lift', 'pick-cube', 'stack-cube', 'peg-insertion']);
  });

  for (const task of ARM_TASK_NAMES) {
    it(`${task}: noise 0 succeeds on ≥ 90% of 20 seeded episodes`, () => {
      const demos = collectExpertDemos(mj, { task, episodes: 20, seed: 1000, noise: 0 });
      const successes = demos.success.reduce((sum, flag) => sum + flag, 0);
      expect(successes).toBeGreaterThanOrEqual(18);
      // Every recorded action is a valid normalized ee_delta_pos action.
      for (const value of demos.actions) expect(Math.abs(value)).toBeLessThanOrEqual(1);
      for (const reward of demos.rewards) {
        expect(reward).toBeGreaterThanOrEqual(-1);
        expect(reward).toBeLessThanOrEqual(0);
      }
    });
  }

  it('noise makes different actions for the same seed, and noise 0 is repeatable', () => {
    const a = collectExpertDemos(mj, { task: 'reach', episodes: 2, seed: 7, noise: 0 });
    const b = collectExpertDemos(mj, { task: 'reach', episodes: 2, seed: 7, noise: 0 });
    const noisy = collectExpertDemos(mj, { task: 'reach', episodes: 2, seed: 7, noise: 0.3 });
    expect([...b.actions]).toEqual([...a.actions]);
    expect(noisy.actions.slice(0, 4)).not.toEqual(a.actions.slice(0, 4));
  });
});

describe('grasp', () => {
  it('holds the 4 cm cube firmly while the arm carries it sideways and up', () => {
    const env = new VectorEnv(mj, { task: 'lift', numEnvs: 1 });
    try {
      env.reset([123]);
      const view = env.env(0);
      const arm = armView(view);
      const expert = liftTask.createExpert(0, createRng(1));
      expert.reset();
      const action = new Float32Array(4);
      const obs = new Float32Array(env.obsDim);
      // TaskEnv.step does not auto-reset, so the episode can run past success.
      let stepIndex = 0;
      for (; stepIndex < 60 && !liftTask.evaluate(arm).success; stepIndex++) {
        expert.act(arm, action);
        view.step(action, 0, obs, 0);
      }
      expect(liftTask.evaluate(arm).success).toBe(true);
      const cube = new Float64Array(3);
      const tcp = new Float64Array(3);
      // Shake: full-speed moves along y, then up, with the jaws closed.
      const moves = [[0, 1, 0], [0, -1, 0], [0, -1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]];
      for (const [dx, dy, dz] of moves) {
        for (let repeat = 0; repeat < 5; repeat++) view.step([dx, dy, dz, -1], 0, obs, 0);
        objectPosition(arm, cube);
        tcpPosition(arm, tcp);
        expect(distance3(cube, tcp)).toBeLessThan(0.02);
        expect(cube[2]).toBeGreaterThan(0.06);
      }
    } finally {
      env.dispose();
    }
  });
});
