import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../../cli/mujoco-node';
import type { Mujoco } from '../mujoco-types';
import { withVectorEnv } from '../fixtures/with-vector-env';
import { NO_HIT_DEPTH } from './camera-frame';
import { openCameraTestScene } from './camera-test-scene';
import { createCameraImageSource } from './image-source';
import { RayCastCamera } from './ray-cast-camera';
import { depthByte, IMAGE_DEPTH_FAR, IMAGE_DEPTH_NEAR, RayCastImageSource } from './ray-cast-image-source';

let mj: Mujoco;
let world: ReturnType<typeof openCameraTestScene>;
beforeAll(async () => {
  mj = await loadMujocoNode();
  world = openCameraTestScene(mj);
});
afterAll(() => world.dispose());

const SIZE = 8;

/** Each camera's frame rendered on its own, for comparison. */
function frameOf(name: string) {
  const camera = new RayCastCamera(mj, world.scene.model, name, { imageSize: SIZE });
  try {
    return camera.render(world.data);
  } finally {
    camera.delete();
  }
}

describe('the rgbd depth byte', () => {
  it('is 0 on a miss, 1 at the near depth, 255 at the far one, linear between and clamped outside', () => {
    expect(depthByte(NO_HIT_DEPTH)).toBe(0);
    expect(depthByte(IMAGE_DEPTH_NEAR)).toBe(1);
    expect(depthByte(0.001)).toBe(1);
    expect(depthByte(IMAGE_DEPTH_FAR)).toBe(255);
    expect(depthByte(9)).toBe(255);
    expect(depthByte((IMAGE_DEPTH_NEAR + IMAGE_DEPTH_FAR) / 2)).toBe(128);
  });
});

describe('RayCastImageSource', () => {
  it('lays out each camera\'s rgb frame in camera order (rgb), and adds the depth byte after it (rgbd)', () => {
    const request = { mj, model: world.scene.model, cameras: ['top', 'front'], size: SIZE } as const;
    const rgb = new RayCastImageSource({ ...request, channels: 3 });
    const rgbd = new RayCastImageSource({ ...request, channels: 4 });
    try {
      const pixels = SIZE * SIZE;
      const rgbOut = new Uint8Array(5 + 2 * pixels * 3);
      rgb.render(world.scene.model, world.data, rgbOut, 5);
      const rgbdOut = new Uint8Array(2 * pixels * 4);
      rgbd.render(world.scene.model, world.data, rgbdOut, 0);
      ['top', 'front'].forEach((name, cameraIndex) => {
        const frame = frameOf(name);
        expect(Array.from(rgbOut.subarray(5 + cameraIndex * pixels * 3, 5 + (cameraIndex + 1) * pixels * 3))).toEqual(Array.from(frame.rgb));
        for (let pixel = 0; pixel < pixels; pixel++) {
          const at = (cameraIndex * pixels + pixel) * 4;
          expect(Array.from(rgbdOut.subarray(at, at + 3))).toEqual(Array.from(frame.rgb.subarray(pixel * 3, pixel * 3 + 3)));
          expect(rgbdOut[at + 3]).toBe(depthByte(frame.depth[pixel]));
        }
      });
      // front looks at the red box 0.9 m away: its centre pixels hold that depth's byte.
      const centre = (3 * SIZE + 4) * 4;
      expect(rgbdOut[pixels * 4 + centre + 3]).toBe(1 + Math.round((254 * (0.9 - IMAGE_DEPTH_NEAR)) / (IMAGE_DEPTH_FAR - IMAGE_DEPTH_NEAR)));
    } finally {
      rgb.delete();
      rgbd.delete();
      rgbd.delete();
    }
  });

  it('is what an env renders without an injected source, one frame per env from its own state', () => {
    withVectorEnv(mj, { task: 'pick-cube', numEnvs: 2, obsMode: 'rgbd', cameras: ['front'], imageSize: 16 }, (env) => {
      env.reset([1, 2]);
      const images = env.images();
      const bytes = env.imageBytes;
      expect(bytes).toBe(16 * 16 * 4);
      const reference = createCameraImageSource({ mj, model: env.scene.model, cameras: ['front'], size: 16, channels: 4 });
      try {
        for (let envIndex = 0; envIndex < 2; envIndex++) {
          const expected = new Uint8Array(bytes);
          reference.render(env.scene.model, env.env(envIndex).data, expected, 0);
          expect(Buffer.from(images.subarray(envIndex * bytes, (envIndex + 1) * bytes)).equals(Buffer.from(expected))).toBe(true);
        }
      } finally {
        reference.delete();
      }
      // The two resets place the cube apart, so the envs' images differ.
      expect(Buffer.from(images.subarray(0, bytes)).equals(Buffer.from(images.subarray(bytes)))).toBe(false);
    });
  });
});
