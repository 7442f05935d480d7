import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { BACKGROUND_RGB } from '../envs/camera/surface-shading';
import type { Mujoco } from '../envs/mujoco-types';
import { VectorEnv } from '../envs/vector-env';
import { ReplayScenes } from '../render/replay-scenes';
import { renderRecordedCamera } from '../render/recorded-camera';
import { cameraView, cameraViewBuffers } from './camera-view';
import { EpisodeStore } from './episode-store';

let mj: Mujoco;
let scenes: ReplayScenes;
beforeAll(async () => {
  mj = await loadMujocoNode();
  scenes = new ReplayScenes(mj);
});
afterAll(() => scenes.dispose());

const RESET = { kind: 'reset', task: 'pick-cube', seed: 4 } as const;

/** Pixels that are not the background colour. */
function foreground(rgb: Uint8Array): number {
  let count = 0;
  for (let pixel = 0; pixel < rgb.length / 3; pixel++) {
    if (rgb[pixel * 3] !== BACKGROUND_RGB[0] || rgb[pixel * 3 + 1] !== BACKGROUND_RGB[1] || rgb[pixel * 3 + 2] !== BACKGROUND_RGB[2]) count++;
  }
  return count;
}

/** A recorded pick-cube episode of three steps, stored as a run stores it. */
function storedEpisode(): { store: EpisodeStore; id: string } {
  const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, recordEpisodes: true });
  try {
    env.reset([2]);
    for (let step = 0; step < 3; step++) env.step(Float32Array.from([1, 0, 1, -1]));
    const store = new EpisodeStore();
    const [summary] = store.add({ task: 'pick-cube', iteration: 1, train: [env.env(0).episodeRecord(0)] }).added;
    return { store, id: summary.id };
  } finally {
    env.dispose();
  }
}

describe('cameraView', () => {
  it("renders a task's first camera at a seeded reset, lists the scene's cameras, and gives the same bytes again", () => {
    const view = cameraView(new EpisodeStore(), scenes, { source: RESET });
    expect(view.cameras).toEqual(['front', 'wrist']);
    expect(view.task).toBe('pick-cube');
    const image = view.image!;
    expect(image.camera).toBe('front');
    expect(image.size).toBe(64);
    expect(image.rgb).toHaveLength(64 * 64 * 3);
    expect(image.depth).toHaveLength(64 * 64);
    // The front camera looks at the table and the floor beyond: most pixels hit something, within a few metres.
    expect(foreground(image.rgb)).toBeGreaterThan(64 * 64 / 2);
    expect(Math.max(...image.depth)).toBeGreaterThan(0);
    expect(Math.max(...image.depth)).toBeLessThan(5);
    const again = cameraView(new EpisodeStore(), scenes, { source: RESET, camera: 'front' }).image!;
    expect(Buffer.from(again.rgb).equals(Buffer.from(image.rgb))).toBe(true);
    expect(Buffer.from(again.depth.buffer).equals(Buffer.from(image.depth.buffer))).toBe(true);
    expect(cameraViewBuffers(view)).toEqual([image.rgb.buffer, image.depth.buffer]);
  });

  it('renders the named camera at the asked size, and another seed moves the cube', () => {
    const front = cameraView(new EpisodeStore(), scenes, { source: RESET }).image!;
    const wrist = cameraView(new EpisodeStore(), scenes, { source: RESET, camera: 'wrist', imageSize: 32 }).image!;
    expect(wrist.camera).toBe('wrist');
    expect(wrist.rgb).toHaveLength(32 * 32 * 3);
    const otherSeed = cameraView(new EpisodeStore(), scenes, { source: { ...RESET, seed: 5 } }).image!;
    expect(Buffer.from(otherSeed.rgb).equals(Buffer.from(front.rgb))).toBe(false);
  });

  it("renders a stored episode's frame from its recorded qpos, and the arm's motion changes the picture", () => {
    const { store, id } = storedEpisode();
    const first = cameraView(store, scenes, { source: { kind: 'episode', id, step: 0 } }).image!;
    const last = cameraView(store, scenes, { source: { kind: 'episode', id, step: 3 } }).image!;
    const record = store.get(id)!.record;
    const direct = renderRecordedCamera(scenes.scene('pick-cube'), record, 3, 'front', 64);
    expect(Buffer.from(last.rgb).equals(Buffer.from(direct.rgb))).toBe(true);
    expect(Buffer.from(last.depth.buffer).equals(Buffer.from(direct.depth.buffer))).toBe(true);
    expect(Buffer.from(last.depth.buffer).equals(Buffer.from(first.depth.buffer))).toBe(false);
  });

  it('gives a task without cameras its empty list and no image', () => {
    const view = cameraView(new EpisodeStore(), scenes, { source: { kind: 'reset', task: 'hopper', seed: 0 } });
    expect(view).toEqual({ task: 'hopper', cameras: [], source: { kind: 'reset', task: 'hopper', seed: 0 } });
    expect(cameraViewBuffers(view)).toEqual([]);
  });

  it('refuses an unknown camera, an evicted episode and a frame past the end, each in one sentence', () => {
    expect(() => cameraView(new EpisodeStore(), scenes, { source: RESET, camera: 'side' })).toThrow(
      expect.objectContaining({ name: 'ConfigError', message: "camera 'side' is not a camera of task 'pick-cube'; its cameras: front, wrist" }));
    expect(() => cameraView(new EpisodeStore(), scenes, { source: { kind: 'episode', id: 'train-9-9', step: 0 } })).toThrow(
      "episode 'train-9-9' is not in the store: it was evicted or the run was reset; pick another episode");
    const { store, id } = storedEpisode();
    expect(() => cameraView(store, scenes, { source: { kind: 'episode', id, step: 4 } })).toThrow(`step 4 is not a frame of episode '${id}', which has frames 0 to 3`);
    expect(() => renderRecordedCamera(scenes.scene('pick-cube'), store.get(id)!.record, 9, 'front', 16)).toThrow("frame 9 is outside the episode's 4 recorded frames (0 to 3)");
  });
});
