import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from '../../core/envs/mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import type { VectorEnv } from '../../core/envs/vector-env';
import type { TaskEnv } from '../../core/envs/task-env';
import { withVectorEnv } from '../../core/envs/fixtures/with-vector-env';
import { createRng } from '../../core/random';
import { armScene } from '../kit/arm-scene';
import { armView } from '../kit/arm-view';
import { tcpPosition } from '../kit/robot-state';
import { FIXTURE_HALF_WIDTH, HOLE_HALF_WIDTH, PEG_HALF_HEIGHT, PEG_HALF_WIDTH, WALL_HEIGHT, WALL_THICKNESS } from '../kit/peg-mjcf';
import { FIXTURE_CENTER, FIXTURE_HALF_RANGE, PEG_CENTER, PEG_HALF_RANGE, PEG_INSERT_DEPTH, pegInsertionSucceeded, pegInsertionTask } from './task';
import { isPegGrasped, pegGraspPoint } from './peg-state';
import { createPegInsertionExpert } from './expert';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

const withEnv = <T>(body: (env: VectorEnv) => T, numEnvs = 1, maxEpisodeSteps = 0) =>
  withVectorEnv(mj, { task: 'peg-insertion', numEnvs, maxEpisodeSteps }, body);

/** Wall centres in the fixture frame: (x, y, half-size x, half-size y), as in fixtureMjcf. */
const WALL_OFFSET = HOLE_HALF_WIDTH + WALL_THICKNESS / 2;
const WALLS = [
  [0, WALL_OFFSET, FIXTURE_HALF_WIDTH, WALL_THICKNESS / 2],
  [0, -WALL_OFFSET, FIXTURE_HALF_WIDTH, WALL_THICKNESS / 2],
  [WALL_OFFSET, 0, WALL_THICKNESS / 2, HOLE_HALF_WIDTH],
  [-WALL_OFFSET, 0, WALL_THICKNESS / 2, HOLE_HALF_WIDTH],
] as const;

/**
 * Places the fixture (hole centre on the table at `hole`) and the peg (bottom face centre at
 * `bottom`, tilted by `tilt` rad about world y), zeroes the velocities and evaluates.
 */
function evaluatePlaced(env: TaskEnv, hole: readonly [number, number], bottom: readonly [number, number, number], tilt = 0) {
  const view = armView(env);
  view.episode.goal.set([hole[0], hole[1], 0]);
  (view.data.mocap_pos as Float64Array).set(view.episode.goal, view.scene.goalMocapId * 3);
  const qpos = view.data.qpos as Float64Array;
  const adr = view.scene.objectQposAdr;
  // The axis (sin t, 0, cos t) points up; the centre is half a height along it from the bottom.
  qpos.set([bottom[0] + PEG_HALF_HEIGHT * Math.sin(tilt), bottom[1], bottom[2] + PEG_HALF_HEIGHT * Math.cos(tilt)], adr);
  qpos.set([Math.cos(tilt / 2), 0, Math.sin(tilt / 2), 0], adr + 3);
  (view.data.qvel as Float64Array).fill(0);
  mj.mj_forward(view.scene.model, view.data);
  return pegInsertionTask.evaluate(view);
}

/** Deepest penetration (m) of the peg's corners and face midpoints into the table and into the walls. */
function pegPenetration(env: TaskEnv): { table: number; wall: number } {
  const view = armView(env);
  const qpos = view.arrays.qpos;
  const adr = view.scene.objectQposAdr;
  const [w, x, y, z] = [qpos[adr + 3], qpos[adr + 4], qpos[adr + 5], qpos[adr + 6]];
  const rot = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
  const hole = view.episode.goal;
  let table = 0;
  let wall = 0;
  for (const sx of [-1, 0, 1]) for (const sy of [-1, 0, 1]) for (const sz of [-1, 0, 1]) {
    const local = [sx * PEG_HALF_WIDTH, sy * PEG_HALF_WIDTH, sz * PEG_HALF_HEIGHT];
    const point = [0, 1, 2].map((i) => qpos[adr + i] + rot[3 * i] * local[0] + rot[3 * i + 1] * local[1] + rot[3 * i + 2] * local[2]);
    table = Math.max(table, -point[2]);
    for (const [cx, cy, hx, hy] of WALLS) {
      const inside = Math.min(hx - Math.abs(point[0] - hole[0] - cx), hy - Math.abs(point[1] - hole[1] - cy), WALL_HEIGHT / 2 - Math.abs(point[2] - WALL_HEIGHT / 2));
      wall = Math.max(wall, inside);
    }
  }
  return { table, wall };
}

describe('peg-insertion success and reward on hand-placed states', () => {
  const hole = [0.5, 0.12] as const;

  it('a peg seated 3 cm deep, centred, succeeds with dense reward 1', () => withEnv((env) => {
    env.reset([42]);
    const seated = evaluatePlaced(env.env(0), hole, [hole[0], hole[1], WALL_HEIGHT - 0.03]);
    expect(seated.success).toBe(true);
    expect(seated.denseReward).toBe(1);
    // 2.1 cm deep and 1.5 mm off the axis (inside the 2 mm clearance) still counts.
    expect(evaluatePlaced(env.env(0), hole, [hole[0] + 0.0015, hole[1], WALL_HEIGHT - PEG_INSERT_DEPTH - 0.001]).success).toBe(true);
  }));

  it('a peg jammed on the rim or tilted across the opening does not succeed', () => withEnv((env) => {
    env.reset([42]);
    const view = env.env(0);
    // Standing on the +x wall's top face.
    expect(evaluatePlaced(view, hole, [hole[0] + WALL_OFFSET, hole[1], WALL_HEIGHT]).success).toBe(false);
    // Overhanging the opening by most of its width, but resting on the rim.
    const onRim = evaluatePlaced(view, hole, [hole[0] + 0.005, hole[1], WALL_HEIGHT]);
    expect(onRim.success).toBe(false);
    expect(onRim.denseReward).toBeLessThan(0.5);
    // Deep enough, but tilted 25° across the opening.
    expect(evaluatePlaced(view, hole, [hole[0], hole[1], WALL_HEIGHT - 0.025], 25 * Math.PI / 180).success).toBe(false);
    // Deep enough, but beside the fixture on the table.
    expect(evaluatePlaced(view, hole, [hole[0] + 0.1, hole[1], 0]).success).toBe(false);
  }));

  it('a peg only 1 cm into the hole does not succeed, and its reward matches the formula', () => withEnv((env) => {
    env.reset([42]);
    const view = armView(env.env(0));
    const tcp = tcpPosition(view, new Float64Array(3));
    // The hole straight under the TCP: the grasp point (3 cm above the peg centre) is then
    // straight below the TCP at z = bottom + 4.5 cm + 3 cm = 0.03 + 0.075 = 0.105.
    const shallow = evaluatePlaced(env.env(0), [tcp[0], tcp[1]], [tcp[0], tcp[1], WALL_HEIGHT - 0.01]);
    expect(shallow.success).toBe(false);
    expect(pegInsertionSucceeded(view)).toBe(false);
    // Not grasped (no pad touches): dense = (reach + 0 + 0·align + 0·lower + 2·inserted) / 6 with
    // reach = 1 − tanh(10·(tcp_z − 0.105)) and inserted = 1 cm / 2 cm = 0.5 (aligned, upright),
    // so dense = (reach + 1) / 6; with the TCP at home (z ≈ 0.25) reach ≈ 1 − tanh(1.45) ≈ 0.104.
    const reach = 1 - Math.tanh(10 * (tcp[2] - 0.105));
    expect(shallow.denseReward).toBeCloseTo((reach + 2 * 0.5) / 6, 6);
  }));
});

describe('peg-insertion reset', () => {
  it('is deterministic per seed and places the fixture mocap at the goal', () => withEnv((env) => {
    const first = env.reset([7]).slice();
    const qpos = Float64Array.from(env.env(0).data.qpos as Float64Array);
    const arm = armView(env.env(0));
    const goal = [...arm.episode.goal];
    env.reset([8]);
    const again = env.reset([7]);
    expect([...again]).toEqual([...first]);
    expect([...(env.env(0).data.qpos as Float64Array)]).toEqual([...qpos]);
    expect([...arm.episode.goal]).toEqual(goal);
    const mocap = env.env(0).data.mocap_pos as Float64Array;
    expect([...mocap.subarray(arm.scene.goalMocapId * 3, arm.scene.goalMocapId * 3 + 3)]).toEqual(goal);
    // The named slices carry the goal and peg_to_hole = hole − peg bottom (the peg stands on the table).
    const slice = (name: string) => {
      const entry = env.config.obsSpec.slices.find((candidate) => candidate.name === name)!;
      return [...first.subarray(entry.start, entry.start + entry.dim)];
    };
    const adr = armScene(mj, env.scene.model).objectQposAdr;
    expect(slice('goal_pos')).toEqual([...Float32Array.from(goal)]);
    expect(slice('peg_to_hole')[0]).toBeCloseTo(goal[0] - qpos[adr], 5);
    expect(slice('peg_to_hole')[2]).toBeCloseTo(0, 5);
    expect(slice('peg_pos')).toEqual([...Float32Array.from(qpos.subarray(adr, adr + 3))]);
  }));

  it('draws peg and fixture poses in their regions, different per seed, never overlapping', () => withEnv((env) => {
    const adr = armScene(mj, env.scene.model).objectQposAdr;
    const pegs = new Set<string>();
    const holes = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      env.reset([seed]);
      const view = armView(env.env(0));
      const qpos = view.data.qpos as Float64Array;
      const goal = view.episode.goal;
      for (let axis = 0; axis < 2; axis++) {
        expect(Math.abs(qpos[adr + axis] - PEG_CENTER[axis])).toBeLessThanOrEqual(PEG_HALF_RANGE[axis]);
        expect(Math.abs(goal[axis] - FIXTURE_CENTER[axis])).toBeLessThanOrEqual(FIXTURE_HALF_RANGE[axis]);
      }
      expect(goal[2]).toBe(0);
      expect(view.episode.objectRestZ).toBe(PEG_HALF_HEIGHT);
      // Clear with room for the open jaws (8 cm gap + 1.2 cm pads) around the peg.
      expect(Math.abs(goal[1] - qpos[adr + 1])).toBeGreaterThan(FIXTURE_HALF_WIDTH + 0.04 + 0.012);
      pegs.add(`${qpos[adr]},${qpos[adr + 1]},${qpos[adr + 6]}`);
      holes.add(`${goal[0]},${goal[1]}`);
    }
    expect(pegs.size).toBe(200);
    expect(holes.size).toBe(200);
  }));

  it('leaves the peg standing still when the arm does nothing', () => withEnv((env) => {
    env.reset([3]);
    const adr = armScene(mj, env.scene.model).objectQposAdr;
    const start = Float64Array.from((env.env(0).data.qpos as Float64Array).subarray(adr, adr + 7));
    for (let stepIndex = 0; stepIndex < 20; stepIndex++) env.step(new Float32Array([0, 0, 0, 1]));
    const end = (env.env(0).data.qpos as Float64Array).subarray(adr, adr + 7);
    for (let q = 0; q < 7; q++) expect(Math.abs(end[q] - start[q])).toBeLessThan(1e-3);
  }));

  it('does not grow the wasm heap over 200 episodes', () => withEnv((env) => {
    const rng = createRng(1);
    const heapBytes = () => (env.env(0).data.qpos as Float64Array).buffer.byteLength;
    const randomActions = () => new Float32Array(8).map(() => rng.uniform() * 2 - 1);
    env.reset([1, 2]);
    for (let stepIndex = 0; stepIndex < 20; stepIndex++) env.step(randomActions());
    env.drainEpisodes();
    const before = heapBytes();
    // Episodes are capped at 10 steps: 2 envs × 1,000 steps = 200 episodes.
    for (let stepIndex = 0; stepIndex < 1000; stepIndex++) {
      env.step(randomActions());
      if (stepIndex % 100 === 99) env.drainEpisodes();
    }
    expect(env.metrics().envSteps).toBeGreaterThanOrEqual(2 * 1020);
    expect(heapBytes()).toBe(before);
  }, 2, 10));
});

describe('peg-insertion expert physics', () => {
  it('grasps the peg (the peg-specific grasp test holds while carrying)', () => withEnv((env) => {
    const view = env.env(0);
    const obs = new Float32Array(env.obsDim);
    view.reset(11, obs, 0);
    const expert = createPegInsertionExpert(0, createRng(1));
    expert.reset();
    const action = new Float32Array(4);
    const tcp = new Float64Array(3);
    const grasp = new Float64Array(3);
    const arm = armView(view);
    let carrySteps = 0;
    for (let stepIndex = 0; stepIndex < pegInsertionTask.maxEpisodeSteps; stepIndex++) {
      expert.act(arm, action);
      const result = view.step(action, 0, obs, 0);
      if (expert.phase() === 'carry') {
        carrySteps++;
        expect(isPegGrasped(arm, tcpPosition(arm, tcp), pegGraspPoint(arm, grasp))).toBe(true);
        // reach ≈ 1 and grasped = 1, so the dense reward is above (1 + 1) / 6 = 1/3.
        expect(result.reward + 1).toBeGreaterThan(1 / 3);
      }
      if (result.terminated) break;
    }
    expect(carrySteps).toBeGreaterThan(3);
    expect(pegInsertionSucceeded(arm)).toBe(true);
  }));

  it('50 expert episodes (10 noisy) stay stable: no unstable step, no tunnelling through the table or walls', () => withEnv((env) => {
    const view = env.env(0);
    const obs = new Float32Array(env.obsDim);
    const action = new Float32Array(4);
    let unstable = 0;
    let successes = 0;
    let deepest = { table: 0, wall: 0 };
    for (let episode = 0; episode < 50; episode++) {
      const noise = episode < 40 ? 0 : 0.3;
      view.reset(500 + episode, obs, 0);
      const expert = createPegInsertionExpert(noise, createRng(episode));
      expert.reset();
      for (let stepIndex = 0; stepIndex < pegInsertionTask.maxEpisodeSteps; stepIndex++) {
        expert.act(armView(view), action);
        const result = view.step(action, 0, obs, 0);
        if (result.unstable) unstable++;
        const depth = pegPenetration(view);
        deepest = { table: Math.max(deepest.table, depth.table), wall: Math.max(deepest.wall, depth.wall) };
        if (result.success) successes++;
        if (result.terminated || result.truncated) break;
      }
    }
    expect(unstable).toBe(0);
    // Soft contacts let a corner sink a few mm for a step when a dropped peg lands; passing
    // through would take the peg's 1.5 cm half-width (table) or the 1.5 cm wall thickness.
    expect(deepest.table).toBeLessThan(0.008);
    expect(deepest.wall).toBeLessThan(0.008);
    expect(successes).toBeGreaterThanOrEqual(40);
  }));
});
