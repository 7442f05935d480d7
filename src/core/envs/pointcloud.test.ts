import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from './mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { VectorEnv } from './vector-env';
import { createRng } from '../random';
import { GEOM_BOX, GEOM_CAPSULE, GEOM_CYLINDER, GEOM_SPHERE, geomSurfaceArea, sampleSurfacePoint } from './pointcloud';
import { ConfigError } from '../errors';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

/** Distance from a local-frame point to the surface of a primitive (float64 reference). */
function surfaceDistance(type: number, size: ArrayLike<number>, p: number[]): number {
  const [a, b, c] = [size[0], size[1], size[2]];
  if (type === GEOM_SPHERE) return Math.abs(Math.hypot(p[0], p[1], p[2]) - a);
  if (type === GEOM_CAPSULE) {
    const z = Math.max(-b, Math.min(b, p[2]));
    return Math.abs(Math.hypot(p[0], p[1], p[2] - z) - a);
  }
  if (type === GEOM_CYLINDER) {
    const radial = Math.hypot(p[0], p[1]);
    const outsideR = radial - a, outsideZ = Math.abs(p[2]) - b;
    if (outsideR <= 1e-9 && outsideZ <= 1e-9) return Math.min(Math.abs(outsideR), Math.abs(outsideZ));
    return Math.hypot(Math.max(outsideR, 0), Math.max(outsideZ, 0));
  }
  const d = [Math.abs(p[0]) - a, Math.abs(p[1]) - b, Math.abs(p[2]) - c];
  const outside = Math.hypot(Math.max(d[0], 0), Math.max(d[1], 0), Math.max(d[2], 0));
  return outside > 0 ? outside : -Math.max(d[0], d[1], d[2]);
}

describe('surface sampling', () => {
  it('gives hand-checked areas', () => {
    // Box half sizes (1, 2, 3): 8·(1·2 + 2·3 + 1·3) = 88.
    expect(geomSurfaceArea(GEOM_BOX, [1, 2, 3])).toBeCloseTo(88, 12);
    // Sphere r = 2: 4π·4 = 16π.
    expect(geomSurfaceArea(GEOM_SPHERE, [2, 0, 0])).toBeCloseTo(16 * Math.PI, 12);
    // Capsule r = 1, half-length 2: side 2π·1·4 = 8π, caps 4π → 12π.
    expect(geomSurfaceArea(GEOM_CAPSULE, [1, 2, 0])).toBeCloseTo(12 * Math.PI, 12);
    // Cylinder r = 1, half-height 2: side 8π, discs 2π → 10π.
    expect(geomSurfaceArea(GEOM_CYLINDER, [1, 2, 0])).toBeCloseTo(10 * Math.PI, 12);
  });

  it('puts every sampled point on the primitive surface', () => {
    const rng = createRng(4);
    const point = [0, 0, 0];
    for (const type of [GEOM_SPHERE, GEOM_CAPSULE, GEOM_CYLINDER, GEOM_BOX]) {
      const size = [0.02 + rng.uniform() * 0.05, 0.02 + rng.uniform() * 0.1, 0.02 + rng.uniform() * 0.05];
      for (let sample = 0; sample < 200; sample++) {
        sampleSurfacePoint(type, size, rng, point);
        expect(surfaceDistance(type, size, point)).toBeLessThan(1e-9);
      }
    }
  });
});

describe('point-cloud observation', () => {
  it('lays out points then proprioception, with world-frame points on the moving geoms', () => {
    const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode: 'pointcloud', numPoints: 128 });
    try {
      const spec = env.config.obsSpec;
      expect(spec.numPoints).toBe(128);
      expect(spec.slices.map((slice) => slice.name)).toEqual(['points', 'joint_qpos', 'gripper_qpos', 'tcp_pos', 'goal_pos']);
      expect(spec.dim).toBe(128 * 3 + 7 + 2 + 3 + 3);
      env.reset([8]);
      const rng = createRng(3);
      let obs = env.step(new Float32Array(4).map(() => rng.uniform() * 2 - 1)).obs;
      obs = env.step(new Float32Array(4).map(() => rng.uniform() * 2 - 1)).obs;
      const view = env.env(0);
      const sampler = view.writer.pointSampler!;
      const xpos = view.data.geom_xpos as Float64Array;
      const xmat = view.data.geom_xmat as Float64Array;
      const geomType = env.scene.model.geom_type as Int32Array;
      const geomSize = env.scene.model.geom_size as Float64Array;
      let cubePoints = 0;
      const cubeGeom = mj.mj_name2id(env.scene.model, mj.mjtObj.mjOBJ_GEOM.value, 'cube_geom');
      for (let pointIndex = 0; pointIndex < 128; pointIndex++) {
        const geomId = sampler.pointGeomIds[pointIndex];
        if (geomId === cubeGeom) cubePoints++;
        // World → geom frame: local = Rᵀ (p − x).
        const world = [obs[pointIndex * 3], obs[pointIndex * 3 + 1], obs[pointIndex * 3 + 2]];
        const rel = [0, 1, 2].map((axis) => world[axis] - xpos[geomId * 3 + axis]);
        const local = [0, 1, 2].map((col) => rel.reduce((sum, value, row) => sum + xmat[geomId * 9 + row * 3 + col] * value, 0));
        // float32 storage of ~1 m coordinates: tolerance 1e-5 m.
        expect(surfaceDistance(geomType[geomId], geomSize.subarray(geomId * 3, geomId * 3 + 3), local)).toBeLessThan(1e-5);
      }
      expect(cubePoints).toBe(32);
      const goal = spec.slices.find((slice) => slice.name === 'goal_pos')!;
      // The episode's goal is where the reset put the goal marker (a mocap body).
      const marker = view.id('mocap', 'goal');
      // pick-cube's one mocap body.
      expect(marker).toBe(0);
      const episodeGoal = view.arrays.mocapPos.subarray(marker * 3, marker * 3 + 3);
      expect([...obs.subarray(goal.start, goal.start + 3)].map((v) => Math.fround(v))).toEqual([...episodeGoal].map((v) => Math.fround(v)));
    } finally {
      env.dispose();
    }
  });

  it('the same seed gives the same cloud; another seed moves the cube points', () => {
    const cloudAfterReset = (seed: number) => {
      const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode: 'pointcloud', numPoints: 64 });
      try {
        return env.reset([seed]).slice(0, 64 * 3);
      } finally {
        env.dispose();
      }
    };
    const first = cloudAfterReset(5);
    expect(Array.from(cloudAfterReset(5))).toEqual(Array.from(first));
    const other = cloudAfterReset(6);
    // The first 16 points (25% of 64) lie on the cube, whose reset pose depends on the seed.
    const cubeMoved = Array.from(first.subarray(0, 16 * 3)).some((value, index) => Math.abs(value - other[index]) > 1e-4);
    expect(cubeMoved).toBe(true);
  });

  it('rejects a non-positive point count', () => {
    expect(() => new VectorEnv(mj, { task: 'reach', numEnvs: 1, obsMode: 'pointcloud', numPoints: 0 })).toThrow(ConfigError);
  });
});
