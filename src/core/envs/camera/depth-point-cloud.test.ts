import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../../cli/mujoco-node';
import type { Mujoco } from '../mujoco-types';
import { openCameraTestScene } from './camera-test-scene';
import { backProjectDepth } from './depth-back-projection';
import { DepthPointCloud } from './depth-point-cloud';
import { RayCastCamera } from './ray-cast-camera';
import { cropToWorkspace } from './workspace-box';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

/** Two 20 cm cubes seen from the front camera at (1, 0, 0.1) along −x; `farY` places the far one sideways. */
const occlusionXml = (farY: number) => `<mujoco model="occlusion">
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1" rgba="0.5 0.5 0.5 1"/>
    <geom name="near_cube" type="box" size="0.1 0.1 0.1" pos="0.3 0 0.1" rgba="1 0 0 1"/>
    <geom name="far_cube" type="box" size="0.1 0.1 0.1" pos="-0.3 ${farY} 0.1" rgba="0 1 0 1"/>
    <camera name="front" pos="1 0 0.1" xyaxes="0 1 0 0 0 1" fovy="45"/>
  </worldbody>
</mujoco>`;

const NEAR_CUBE = { min: [0.2, -0.1, 0], max: [0.4, 0.1, 0.2] };
const CAMERA = [1, 0, 0.1];

/** True when the open segment from the camera to p, stopped 1 mm short, passes through the near cube (slab test, float64). */
function hiddenByNearCube(p: ArrayLike<number>): boolean {
  let enter = 0;
  let leave = 1 - 0.001 / Math.hypot(p[0] - CAMERA[0], p[1] - CAMERA[1], p[2] - CAMERA[2]);
  for (let axis = 0; axis < 3; axis++) {
    const direction = p[axis] - CAMERA[axis];
    if (direction === 0) {
      if (CAMERA[axis] < NEAR_CUBE.min[axis] || CAMERA[axis] > NEAR_CUBE.max[axis]) return false;
      continue;
    }
    const a = (NEAR_CUBE.min[axis] - CAMERA[axis]) / direction, b = (NEAR_CUBE.max[axis] - CAMERA[axis]) / direction;
    enter = Math.max(enter, Math.min(a, b));
    leave = Math.min(leave, Math.max(a, b));
  }
  return enter < leave;
}

/** The 256-point depth cloud of the front camera at 64 × 64, as [N][3]. */
function frontCloud(xml: string): number[][] {
  const world = openCameraTestScene(mj, xml);
  const cloud = new DepthPointCloud(mj, world.scene.model, { cameras: ['front'], numPoints: 256 });
  try {
    const out = new Float32Array(256 * 3);
    cloud.write(world.data, out, 0);
    return Array.from({ length: 256 }, (_, point) => Array.from(out.subarray(point * 3, point * 3 + 3)));
  } finally {
    cloud.delete();
    world.dispose();
  }
}

describe('depth point cloud occlusion', () => {
  it('has no point on a cube hidden right behind another', () => {
    // The far cube's front face, 1.2 m away, looks half as large as the near cube's, 0.6 m away, and sits behind it.
    const points = frontCloud(occlusionXml(0));
    expect(points.filter((p) => p[0] < 0).length).toBe(0);
    // Every point is on the near cube's front face x = 0.4 (float32 depth: within a micrometre).
    for (const p of points) expect(p[0]).toBeCloseTo(0.4, 5);
  });

  it('keeps only the visible strip of a partly hidden cube: nothing on its far face or its occluded faces', () => {
    // Far cube at y ∈ [0.1, 0.3]: its front face x = −0.2 shows only where y/1.2 > 0.1/0.6, i.e. y > 0.2;
    // its −y face (y = 0.1, x ∈ [−0.4, −0.2]) lies wholly behind the near cube, its far face x = −0.4 faces away.
    const points = frontCloud(occlusionXml(0.2));
    const onFarCube = points.filter((p) => p[0] < 0);
    expect(onFarCube.length).toBeGreaterThan(0);
    for (const p of onFarCube) {
      expect(p[0]).toBeCloseTo(-0.2, 5);
      expect(p[1]).toBeGreaterThan(0.2 - 1e-6);
      expect(p[1]).toBeLessThan(0.3 + 1e-6);
    }
    expect(points.some((p) => p[0] < -0.2 - 1e-5)).toBe(false);
    expect(points.filter((p) => hiddenByNearCube(p)).length).toBe(0);
    // The default workspace drops the floor (z = 0).
    expect(points.every((p) => p[2] >= 0.005)).toBe(true);
  });
});

describe('depth point cloud assembly', () => {
  it('back-projects the depth to the surfaces the rays hit', () => {
    const world = openCameraTestScene(mj);
    const camera = new RayCastCamera(mj, world.scene.model, 'front', { imageSize: 16 });
    try {
      const frame = camera.render(world.data);
      const points = backProjectDepth(frame.depth, 16, camera.fovy, camera.pose(world.data));
      let index = 0;
      for (let pixel = 0; pixel < 256; pixel++) {
        if (frame.geomIds[pixel] < 0) continue;
        const p = points.subarray(index * 3, index * 3 + 3);
        index++;
        // The floor is z = 0; both boxes' front faces lie in x = 0.1, and the camera (at y = 0) also sees the right box's −y face y = 0.35.
        const geomId = frame.geomIds[pixel];
        if (geomId === world.geom('floor')) expect(p[2]).toBeCloseTo(0, 5);
        else if (geomId === world.geom('box')) expect(p[0]).toBeCloseTo(0.1, 5);
        else expect(Math.min(Math.abs(p[0] - 0.1), Math.abs(p[1] - 0.35))).toBeLessThan(1e-5);
      }
      expect(index * 3).toBe(points.length);
    } finally {
      camera.delete();
      world.dispose();
    }
  });

  it('crops to a workspace box, keeping order', () => {
    const points = Float64Array.from([0, 0, 0, 1, 1, 1, 0.5, 0.5, 0.5, 2, 0, 0]);
    expect(cropToWorkspace(points, 4, { min: [0, 0, 0], max: [1, 1, 1] })).toBe(3);
    expect(Array.from(points.subarray(0, 9))).toEqual([0, 0, 0, 1, 1, 1, 0.5, 0.5, 0.5]);
  });

  it('fuses cameras, drops hidden geoms\' hits, and writes the same bytes for the same state', () => {
    const world = openCameraTestScene(mj);
    const options = { cameras: ['front', 'top'], numPoints: 128, imageSize: 16, hiddenGeomIds: [world.geom('right_box')] };
    const clouds = [new DepthPointCloud(mj, world.scene.model, options), new DepthPointCloud(mj, world.scene.model, options)];
    try {
      const [a, b] = clouds.map((cloud) => {
        const out = new Float32Array(128 * 3);
        cloud.write(world.data, out, 0);
        return out;
      });
      expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
      const points = Array.from({ length: 128 }, (_, point) => Array.from(a.subarray(point * 3, point * 3 + 3)));
      // The top camera alone sees the red box's top (z = 0.2); the front camera alone its front face (x = 0.1).
      expect(points.some((p) => Math.abs(p[2] - 0.2) < 1e-5)).toBe(true);
      expect(points.some((p) => Math.abs(p[0] - 0.1) < 1e-5 && p[2] < 0.19)).toBe(true);
      // Nothing of the right box (y ≥ 0.35), whose hits are dropped.
      expect(points.every((p) => p[1] < 0.35)).toBe(true);
    } finally {
      clouds.forEach((cloud) => cloud.delete());
      world.dispose();
    }
  });
});
