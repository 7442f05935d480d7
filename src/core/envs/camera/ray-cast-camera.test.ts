import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../../cli/mujoco-node';
import type { Mujoco } from '../mujoco-types';
import { NO_HIT_DEPTH, NO_HIT_GEOM, type CameraFrame } from './camera-frame';
import { RayCastCamera } from './ray-cast-camera';
import { BACKGROUND_RGB } from './surface-shading';
import { openCameraTestScene } from './camera-test-scene';

let mj: Mujoco;
let world: ReturnType<typeof openCameraTestScene>;
beforeAll(async () => {
  mj = await loadMujocoNode();
  world = openCameraTestScene(mj);
});
afterAll(() => world.dispose());

/** Renders `name` at 8 × 8 pixels (with `groups` when given) and frees the camera. */
function render(name: string, groups?: number[]): CameraFrame {
  const camera = new RayCastCamera(mj, world.scene.model, name, { imageSize: 8, ...(groups ? { geomGroups: groups } : {}) });
  try {
    return camera.render(world.data);
  } finally {
    camera.delete();
  }
}

const pixel = (row: number, column: number) => row * 8 + column;
const rgbAt = (frame: CameraFrame, row: number, column: number) => Array.from(frame.rgb.subarray(pixel(row, column) * 3, pixel(row, column) * 3 + 3));

// 8 × 8 pixels, fovy 60°: h = tan 30° = 0.5773502691896257. Through the centre of column c and row r the
// camera-frame ray is (u, v, −1) with u = (2(c + ½)/8 − 1)·h and v = (1 − 2(r + ½)/8)·h:
// columns 3, 4 → u = ∓0.0721687836; columns 0, 7 → u = ∓0.5051814855; rows 3, 4 → v = ±0.0721687836; rows 0, 7 → v = ±0.5051814855.
describe('RayCastCamera on a hand-checked scene', () => {
  // front: at (1, 0, 0.1), camera x = world +y, camera y = world +z, looking along −x: a ray is (1, 0, 0.1) + t·(−1, u, v).
  it('gives the z-depth the geometry predicts, not the ray length', () => {
    const frame = render('front');
    // (3, 4): the red box's face x = 0.1 at t = 0.9, where y = 0.065 and z = 0.165 lie on the face: depth 0.9
    // (the ray's length there is 0.9·√(1 + 2·0.0721687836²) = 0.90468).
    expect(frame.depth[pixel(3, 4)]).toBeCloseTo(0.9, 6);
    expect(frame.depth[pixel(4, 3)]).toBeCloseTo(0.9, 6);
    // (3, 7): y = 0.5051814855·0.9 = 0.45466 on the right box's face x = 0.1 (y ∈ [0.35, 0.55]): depth 0.9 again.
    expect(frame.depth[pixel(3, 7)]).toBeCloseTo(0.9, 6);
    // (7, 4): the floor z = 0 at t = 0.1 / 0.5051814855 = 0.1979485…, where x = 0.802 is clear of both boxes.
    expect(frame.depth[pixel(7, 4)]).toBeCloseTo(0.1 / 0.5051814855409226, 6);
    // (3, 0): y = −0.455 at the boxes' plane and rising (v > 0): nothing is hit. (0, 4): rising steeply, nothing.
    expect(frame.depth[pixel(3, 0)]).toBe(NO_HIT_DEPTH);
    expect(frame.depth[pixel(0, 4)]).toBe(NO_HIT_DEPTH);
  });

  it('names the box, the floor or no geom at each pixel, row 0 at the top and column 0 at the left', () => {
    const front = render('front');
    expect(front.geomIds[pixel(3, 4)]).toBe(world.geom('box'));
    expect(front.geomIds[pixel(3, 7)]).toBe(world.geom('right_box'));
    expect(front.geomIds[pixel(7, 4)]).toBe(world.geom('floor'));
    expect(front.geomIds[pixel(3, 0)]).toBe(NO_HIT_GEOM);
    expect(front.geomIds[pixel(0, 4)]).toBe(NO_HIT_GEOM);
    // top: at (0, 0, 1), camera axes = world axes, looking down: a ray is (0, 0, 1) + t·(u, v, −1).
    const top = render('top');
    // (3, 4): the red box's top z = 0.2 at t = 0.8, where x = y = 0.0577.
    expect(top.geomIds[pixel(3, 4)]).toBe(world.geom('box'));
    expect(top.depth[pixel(3, 4)]).toBeCloseTo(0.8, 6);
    // (0, 4): v = +0.505, toward +y: the right box's top at t = 0.8 (x = 0.0577, y = 0.404 ∈ [0.35, 0.55]).
    expect(top.geomIds[pixel(0, 4)]).toBe(world.geom('right_box'));
    expect(top.depth[pixel(0, 4)]).toBeCloseTo(0.8, 6);
    // (7, 4): toward −y, only floor there: t = 1.
    expect(top.geomIds[pixel(7, 4)]).toBe(world.geom('floor'));
    expect(top.depth[pixel(7, 4)]).toBeCloseTo(1, 6);
  });

  it('shades each geom colour with ambient plus Lambert light on the hit normal', () => {
    const front = render('front');
    // Face x = 0.1 has normal +x: light 0.4 + 0.6·0.2761723854 = 0.5657034; red: round(255·0.5657034) = 144.
    expect(rgbAt(front, 3, 4)).toEqual([144, 0, 0]);
    // The right box takes its material's blue, not its geom rgba (MuJoCo's default grey).
    expect(rgbAt(front, 3, 7)).toEqual([0, 0, 144]);
    // Floor normal +z: 0.4 + 0.6·0.9205746179 = 0.9523448; grey 0.5: round(127.5·0.9523448) = 121.
    expect(rgbAt(front, 7, 4)).toEqual([121, 121, 121]);
    expect(rgbAt(front, 3, 0)).toEqual([...BACKGROUND_RGB]);
    // The top face faces the light more than the side face: round(255·0.9523448) = 243.
    expect(rgbAt(render('top'), 3, 4)).toEqual([243, 0, 0]);
  });

  it('leaves geom groups 3-5 out unless asked for them', () => {
    // The green box in group 3 spans x ∈ [0.45, 0.55]; the ray of (3, 4) enters its face x = 0.55 at t = 0.45.
    const withGroup3 = render('front', [0, 1, 2, 3]);
    expect(withGroup3.geomIds[pixel(3, 4)]).toBe(world.geom('group3_box'));
    expect(withGroup3.depth[pixel(3, 4)]).toBeCloseTo(0.45, 6);
    expect(render('front').geomIds[pixel(3, 4)]).toBe(world.geom('box'));
  });

  it('renders the same state to the same bytes, with one camera or two', () => {
    const first = new RayCastCamera(mj, world.scene.model, 'front', { imageSize: 32 });
    const second = new RayCastCamera(mj, world.scene.model, 'front', { imageSize: 32 });
    try {
      const a = first.render(world.data);
      const again = first.render(world.data, first.createFrame());
      const b = second.render(world.data);
      for (const frame of [again, b]) {
        expect(Buffer.from(frame.rgb.buffer).equals(Buffer.from(a.rgb.buffer))).toBe(true);
        expect(Buffer.from(frame.depth.buffer).equals(Buffer.from(a.depth.buffer))).toBe(true);
        expect(Buffer.from(frame.geomIds.buffer).equals(Buffer.from(a.geomIds.buffer))).toBe(true);
      }
    } finally {
      first.delete();
      second.delete();
    }
  });
});

describe('RayCastCamera lookup and ownership', () => {
  it('refuses an unknown camera, naming it and listing the scene\'s cameras', () => {
    expect(() => new RayCastCamera(mj, world.scene.model, 'wrist')).toThrow(
      expect.objectContaining({ name: 'ConfigError', field: 'env.camera', message: "env.camera 'wrist' is not a camera of the scene; its cameras: front, top, flat" }),
    );
  });

  it('refuses an orthographic camera, whose rays do not start at one point', () => {
    expect(() => new RayCastCamera(mj, world.scene.model, 'flat')).toThrow(/'flat' is an orthographic camera/);
  });

  it('frees every wasm buffer it allocated on delete(), and renders no more after it', () => {
    const created: { isDeleted(): boolean }[] = [];
    // Counts the buffers the camera allocates through the module it is given.
    const counting = new Proxy(mj, {
      get(target, key, receiver) {
        if (key !== 'IntBuffer' && key !== 'DoubleBuffer') return Reflect.get(target, key, receiver);
        const Buffer = Reflect.get(target, key, receiver) as new (size: number) => { isDeleted(): boolean };
        return function tracked(size: number) {
          const buffer = new Buffer(size);
          created.push(buffer);
          return buffer;
        };
      },
    });
    const camera = new RayCastCamera(counting, world.scene.model, 'front', { imageSize: 16 });
    camera.render(world.data);
    expect(created.length).toBe(3);
    expect(created.every((buffer) => !buffer.isDeleted())).toBe(true);
    camera.delete();
    expect(created.every((buffer) => buffer.isDeleted())).toBe(true);
    expect(camera.isDeleted).toBe(true);
    camera.delete();
    expect(() => camera.render(world.data)).toThrow(/was deleted/);
  });

  it('refuses an image size outside its bounds', () => {
    expect(() => new RayCastCamera(mj, world.scene.model, 'front', { imageSize: 2 })).toThrow(expect.objectContaining({ field: 'env.image_size' }));
  });
});
