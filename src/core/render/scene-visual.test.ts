import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from '../envs/mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { VectorEnv } from '../envs/vector-env';
import { createRng } from '../random';
import type { EpisodeRecord } from '../envs/task-env';
import type { TaskName } from '../envs/task-types';
import { getTask, taskNames } from '../envs/task-registry';
import { SceneModel } from '../envs/scene-model';
import { ShapeError } from '../errors';
import { POSE_STRIDE, episodePoses, sceneVisual, visibleGeomIds } from './scene-visual';
import { ReplayScenes } from './replay-scenes';

/** The registered tasks: the built-ins. */
const TASK_NAMES = taskNames();
/** The arm tasks (those naming an end-effector site); the locomotion bodies are capsules on a plane. */
const ARM_TASK_NAMES = TASK_NAMES.filter((task) => getTask(task).render.endEffectorSite !== undefined);

let mj: Mujoco;
let scenes: ReplayScenes;
beforeAll(async () => {
  mj = await loadMujocoNode();
  scenes = new ReplayScenes(mj);
});
afterAll(() => scenes.dispose());

/** name → rgba of every `<geom name=".." ... rgba="..">` in the MJCF text, read independently of MuJoCo. */
function mjcfGeomColours(xml: string): Map<string, number[]> {
  const colours = new Map<string, number[]>();
  for (const match of xml.matchAll(/<geom name="([^"]+)"[^>]*?rgba="([^"]+)"/g)) {
    colours.set(match[1], match[2].trim().split(/\s+/).map(Number));
  }
  return colours;
}

interface ExpertEpisode {
  record: EpisodeRecord;
  /** geom_xpos [ngeom × 3] and geom_xmat [ngeom × 9] right after the reset. */
  resetXpos: Float64Array;
  resetXmat: Float64Array;
  resetTcp: Float64Array;
}

/** One scripted-expert episode recorded by a VectorEnv, with the state right after its reset. */
function expertEpisode(task: TaskName, seed: number): ExpertEpisode {
  const definition = getTask(task);
  const env = new VectorEnv(mj, { task, numEnvs: 1, recordEpisodes: true, controlMode: definition.expert!.control });
  try {
    env.reset([seed]);
    const view = env.env(0);
    const resetXpos = Float64Array.from(view.arrays.geomXpos);
    const resetXmat = Float64Array.from(view.arrays.geomXmat);
    const tcpSite = view.id('site', definition.render.endEffectorSite!);
    const resetTcp = Float64Array.from(view.arrays.siteXpos.subarray(tcpSite * 3, tcpSite * 3 + 3));
    const expert = definition.expert!.create(0, createRng(seed));
    expert.reset();
    const action = new Float32Array(env.config.actionDim);
    for (let stepIndex = 0; stepIndex < env.config.maxEpisodeSteps; stepIndex++) {
      expert.act(env.env(0), action);
      const result = env.step(action);
      if (result.terminated[0] || result.truncated[0]) break;
    }
    const [record] = env.drainEpisodes();
    return { record, resetXpos, resetXmat, resetTcp };
  } finally {
    env.dispose();
  }
}

describe('sceneVisual', () => {
  it('lists the shapes each task is built from', () => {
    const shapesOf = (task: TaskName) => new Set(scenes.visual(task).geoms.map((geom) => geom.shape));
    expect(ARM_TASK_NAMES).toEqual(expect.arrayContaining(['reach', 'lift', 'pick-cube']));
    for (const task of ARM_TASK_NAMES) {
      // Every arm task has the floor plane, the table and hand boxes, arm capsules and cylinders.
      for (const shape of ['plane', 'box', 'capsule', 'cylinder'] as const) expect(shapesOf(task).has(shape), `${task} ${shape}`).toBe(true);
    }
    expect(shapesOf('reach').has('sphere')).toBe(true);
    expect(shapesOf('pick-cube').has('sphere')).toBe(true);
    // Lift has no goal marker, so no sphere.
    expect(shapesOf('lift').has('sphere')).toBe(false);
    const names = (task: TaskName) => scenes.visual(task).geoms.map((geom) => geom.name);
    expect(names('lift')).toContain('cube_geom');
    expect(names('reach')).not.toContain('cube_geom');
    expect(names('pick-cube')).toEqual(expect.arrayContaining(['cube_geom', 'goal_marker', 'floor', 'table', 'finger_left_pad']));
  });

  it('takes every colour from the MJCF and keeps MuJoCo size semantics', () => {
    for (const task of TASK_NAMES) {
      const colours = mjcfGeomColours(getTask(task).scene.xml);
      const visual = scenes.visual(task);
      expect(visual.geoms.length).toBe(colours.size);
      for (const geom of visual.geoms) {
        const expected = colours.get(geom.name);
        expect(expected, geom.name).toBeDefined();
        geom.rgba.forEach((channel, channelIndex) => expect(channel).toBeCloseTo(expected![channelIndex], 6));
      }
    }
    const lift = scenes.visual('lift');
    const byName = (name: string) => lift.geoms.find((geom) => geom.name === name)!;
    expect(byName('cube_geom').size).toEqual([0.02, 0.02, 0.02].map((v) => expect.closeTo(v, 9)));
    // fromto="0 0 -0.19 0 0 -0.02", radius 0.06: half length (0.19 − 0.02) / 2 = 0.085.
    expect(byName('link1_geom').size[0]).toBeCloseTo(0.06, 9);
    expect(byName('link1_geom').size[1]).toBeCloseTo(0.085, 9);
    expect(byName('table').size).toEqual([0.55, 0.6, 0.375].map((v) => expect.closeTo(v, 9)));
    // 20 Hz control: 10 substeps of 5 ms.
    expect(lift.fps).toBe(20);
    expect(lift.task).toBe('lift');
  });

  it('names a geom on render.trackBody for the camera to follow, and refuses a body the scene lacks', () => {
    const hopper = sceneVisual(scenes.scene('hopper'), getTask('hopper'));
    const scene = scenes.scene('hopper');
    const geomBody = scene.model.geom_bodyid as Int32Array;
    expect(geomBody[visibleGeomIds(scene)[hopper.trackGeom!]]).toBe(scene.id('body', 'torso'));
    expect(sceneVisual(scenes.scene('reach'), getTask('reach')).trackGeom).toBeUndefined();
    const lost = { ...getTask('hopper'), render: { ...getTask('hopper').render, trackBody: 'no_such_body' } };
    expect(() => sceneVisual(scene, lost)).toThrow("render.trackBody 'no_such_body' is not a body of the scene with a visible geom");
  });

  it('skips geoms in hidden groups', () => {
    const xml = getTask('reach').scene.xml.replace('group="2"', 'group="3"');
    const scene = scenes.scene('reach');
    const hiddenScene = new SceneModel(mj, { xml, assets: new Map() });
    try {
      expect(visibleGeomIds(hiddenScene).length).toBe(visibleGeomIds(scene).length - 1);
      expect(sceneVisual(hiddenScene, getTask('reach')).geoms.map((geom) => geom.name)).not.toContain('goal_marker');
    } finally {
      hiddenScene.dispose();
    }
  });
});

describe('episodePoses', () => {
  let lift: ExpertEpisode;
  let pick: ExpertEpisode;
  beforeAll(() => {
    lift = expertEpisode('lift', 3);
    pick = expertEpisode('pick-cube', 5);
  });

  it('lays out frames × geomCount × 12 floats with orthonormal rotations', () => {
    const poses = episodePoses(scenes.scene('lift'), getTask('lift'), lift.record);
    expect(poses.frames).toBe(lift.record.length + 1);
    expect(poses.geomCount).toBe(scenes.visual('lift').geoms.length);
    expect(poses.poses.length).toBe(poses.frames * poses.geomCount * POSE_STRIDE);
    expect(poses.tcp.length).toBe(poses.frames * 3);
    const rng = createRng(11);
    for (let draw = 0; draw < 20; draw++) {
      const frame = Math.floor(rng.uniform() * poses.frames);
      const slot = Math.floor(rng.uniform() * poses.geomCount);
      const r = poses.poses.subarray((frame * poses.geomCount + slot) * POSE_STRIDE + 3, (frame * poses.geomCount + slot + 1) * POSE_STRIDE);
      // R Rᵀ = I, row by row in float64.
      for (let row = 0; row < 3; row++) {
        for (let col = 0; col < 3; col++) {
          let dot = 0;
          for (let k = 0; k < 3; k++) dot += r[row * 3 + k] * r[col * 3 + k];
          expect(dot).toBeCloseTo(row === col ? 1 : 0, 5);
        }
      }
    }
  });

  it("frame 0 equals a fresh reset's geom_xpos, geom_xmat and TCP, goal marker included", () => {
    for (const [task, episode] of [['lift', lift], ['pick-cube', pick]] as const) {
      const scene = scenes.scene(task);
      const poses = episodePoses(scene, getTask(task), episode.record);
      visibleGeomIds(scene).forEach((geomId, slot) => {
        for (let axis = 0; axis < 3; axis++) expect(poses.poses[slot * POSE_STRIDE + axis]).toBeCloseTo(episode.resetXpos[geomId * 3 + axis], 5);
        for (let entry = 0; entry < 9; entry++) expect(poses.poses[slot * POSE_STRIDE + 3 + entry]).toBeCloseTo(episode.resetXmat[geomId * 9 + entry], 5);
      });
      for (let axis = 0; axis < 3; axis++) expect(poses.tcp[axis]).toBeCloseTo(episode.resetTcp[axis], 5);
    }
    // The pick-cube goal marker sits at the recorded goal (its mocap body's position) in every frame.
    const visual = scenes.visual('pick-cube');
    const goalSlot = visual.geoms.findIndex((geom) => geom.name === 'goal_marker');
    const pickScene = scenes.scene('pick-cube');
    const goalMocap = pickScene.id('mocap', 'goal');
    // pick-cube's one mocap body.
    expect(goalMocap).toBe(0);
    const poses = episodePoses(pickScene, getTask('pick-cube'), pick.record);
    for (const frame of [0, poses.frames - 1]) {
      for (let axis = 0; axis < 3; axis++) {
        expect(poses.poses[(frame * poses.geomCount + goalSlot) * POSE_STRIDE + axis]).toBeCloseTo(pick.record.mocapPos[goalMocap * 3 + axis], 5);
      }
    }
  });

  it('moves the cube up during a successful scripted lift, and the TCP with it', () => {
    expect(lift.record.success).toBe(true);
    const visual = scenes.visual('lift');
    const cubeSlot = visual.geoms.findIndex((geom) => geom.name === 'cube_geom');
    const poses = episodePoses(scenes.scene('lift'), getTask('lift'), lift.record);
    const cubeZ = (frame: number) => poses.poses[(frame * poses.geomCount + cubeSlot) * POSE_STRIDE + 2];
    // Success is a 4 cm rise of the cube centre; it rests at z = 0.02 on the table.
    expect(cubeZ(0)).toBeCloseTo(0.02, 2);
    expect(cubeZ(poses.frames - 1) - cubeZ(0)).toBeGreaterThan(0.04);
    // The cube follows its free joint: qpos[adr..adr+3] of the last frame.
    const adr = scenes.scene('lift').qposAddress('cube_joint');
    const nq = lift.record.nq;
    for (let axis = 0; axis < 3; axis++) {
      expect(poses.poses[((poses.frames - 1) * poses.geomCount + cubeSlot) * POSE_STRIDE + axis]).toBeCloseTo(lift.record.qpos[(poses.frames - 1) * nq + adr + axis], 5);
    }
    const tcpTravel = Math.hypot(poses.tcp[3 * (poses.frames - 1)] - poses.tcp[0], poses.tcp[3 * (poses.frames - 1) + 1] - poses.tcp[1], poses.tcp[3 * (poses.frames - 1) + 2] - poses.tcp[2]);
    expect(tcpTravel).toBeGreaterThan(0.02);
  });

  it('rejects a record of another task, an empty trajectory and bad mocap positions', () => {
    const reach = scenes.scene('reach');
    const liftTask = getTask('lift');
    expect(() => episodePoses(reach, getTask('reach'), lift.record)).toThrow(ShapeError);
    expect(() => episodePoses(reach, getTask('reach'), lift.record)).toThrow(/record\.nq|nq 16 but the scene has nq 9/);
    const empty: EpisodeRecord = { ...lift.record, qpos: new Float32Array(0) };
    expect(() => episodePoses(scenes.scene('lift'), liftTask, empty)).toThrow(/recordEpisodes is off/);
    const ragged: EpisodeRecord = { ...lift.record, qpos: lift.record.qpos.subarray(0, lift.record.nq * 2 + 1) };
    expect(() => episodePoses(scenes.scene('lift'), liftTask, ragged)).toThrow(ShapeError);
    const badMocap: EpisodeRecord = { ...lift.record, mocapPos: [0, 0] };
    expect(() => episodePoses(scenes.scene('lift'), liftTask, badMocap)).toThrow(ShapeError);
    expect(() => episodePoses(scenes.scene('lift'), liftTask, badMocap)).toThrow(/record\.mocapPos has 2 values/);
  });
});
