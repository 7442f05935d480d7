import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import type { EpisodePoses, SceneVisual } from '../core/render/scene-visual';
import { buildThreeScene } from './three-scene';

const visual: SceneVisual = {
  task: 'lift',
  fps: 20,
  camera: { position: [1.3, 0.85, 0.7], target: [0.35, 0, 0.12] },
  geoms: [
    { name: 'floor', shape: 'plane', size: [2, 2, 0.05], rgba: [0.35, 0.37, 0.4, 1] },
    { name: 'rod', shape: 'capsule', size: [0.05, 0.2, 0], rgba: [1, 1, 1, 1] },
    { name: 'marker', shape: 'sphere', size: [0.012, 0, 0], rgba: [0.2, 0.85, 0.3, 0.45] },
  ],
};

/** Two frames: frame 1 moves the rod to (0.5, −0.2, 0.3) and turns it 90° about x (local z → world −y). */
function twoFramePoses(): EpisodePoses {
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const aboutX = [1, 0, 0, 0, 0, -1, 0, 1, 0];
  const frame0 = [[0, 0, 0, ...identity], [0, 0, 0.5, ...identity], [0.4, 0, 0.2, ...identity]];
  const frame1 = [[0, 0, 0, ...identity], [0.5, -0.2, 0.3, ...aboutX], [0.4, 0, 0.2, ...identity]];
  return { frames: 2, geomCount: 3, poses: Float32Array.from([...frame0, ...frame1].flat()), tcp: new Float32Array(6) };
}

describe('buildThreeScene', () => {
  it('moves the target with a tracked geom in x and y, keeping its offset and height; without one the target stays', () => {
    const poses = twoFramePoses();
    // The rod moves by (0.5, −0.2, −0.2) from frame 0 to 1: the target by (0.5, −0.2, 0).
    const tracked = buildThreeScene({ ...visual, trackGeom: 1 }).trackedTarget(poses, 1);
    expect(tracked.map((value) => Number(value.toFixed(6)))).toEqual([0.85, -0.2, 0.12]);
    expect(buildThreeScene({ ...visual, trackGeom: 1 }).trackedTarget(poses, 0)).toEqual([0.35, 0, 0.12]);
    expect(buildThreeScene(visual).trackedTarget(poses, 1)).toEqual([0.35, 0, 0.12]);
  });

  it('builds one mesh per geom with MuJoCo axes, colours and lights', () => {
    const handle = buildThreeScene(visual);
    const meshes = handle.scene.children.filter((child): child is THREE.Mesh => child instanceof THREE.Mesh);
    expect(meshes.map((mesh) => mesh.name)).toEqual(['floor', 'rod', 'marker']);
    expect(handle.scene.children.some((child) => child instanceof THREE.Light)).toBe(true);
    // The capsule's long axis is local z: half length 0.2 plus the 0.05 cap on each side.
    const box = new THREE.Box3().setFromBufferAttribute(meshes[1].geometry.getAttribute('position') as THREE.BufferAttribute);
    expect(box.max.z).toBeCloseTo(0.25, 5);
    expect(box.max.x).toBeCloseTo(0.05, 3);
    const marker = meshes[2].material as THREE.MeshStandardMaterial;
    expect(marker.transparent).toBe(true);
    expect(marker.opacity).toBeCloseTo(0.45, 6);
    // MJCF colours are display (sRGB) values: converting back gives the written numbers.
    const srgb = marker.color.clone().convertLinearToSRGB();
    expect([srgb.r, srgb.g, srgb.b].map((v) => Number(v.toFixed(4)))).toEqual([0.2, 0.85, 0.3]);
    expect(handle.camera.up.toArray()).toEqual([0, 0, 1]);
    handle.dispose();
  });

  it('poses meshes from the row-major rotation and position of a frame', () => {
    const handle = buildThreeScene(visual);
    const poses = twoFramePoses();
    const rod = handle.scene.getObjectByName('rod')!;
    handle.setFrame(poses, 1);
    handle.scene.updateMatrixWorld(true);
    const position = new THREE.Vector3().setFromMatrixPosition(rod.matrixWorld);
    expect(position.toArray().map((v) => Number(v.toFixed(6)))).toEqual([0.5, -0.2, 0.3]);
    // The rod's tip (0, 0, 0.25) in its frame lands at p + R·tip = (0.5, −0.2 − 0.25, 0.3).
    const tip = new THREE.Vector3(0, 0, 0.25).applyMatrix4(rod.matrixWorld);
    expect(tip.x).toBeCloseTo(0.5, 6);
    expect(tip.y).toBeCloseTo(-0.45, 6);
    expect(tip.z).toBeCloseTo(0.3, 6);
    // Frames past the end clamp to the last; negative ones to the first.
    handle.setFrame(poses, -3);
    handle.scene.updateMatrixWorld(true);
    expect(new THREE.Vector3().setFromMatrixPosition(rod.matrixWorld).z).toBeCloseTo(0.5, 6);
    handle.setFrame(poses, 9);
    handle.scene.updateMatrixWorld(true);
    expect(new THREE.Vector3().setFromMatrixPosition(rod.matrixWorld).z).toBeCloseTo(0.3, 6);
    handle.dispose();
  });

  it('rejects poses of another scene and keeps the aspect', () => {
    const handle = buildThreeScene(visual);
    expect(() => handle.setFrame({ ...twoFramePoses(), geomCount: 2 }, 0)).toThrow(/geomCount \(2\) must equal the scene's geoms \(3\)/);
    handle.setAspect(16 / 9);
    expect(handle.camera.aspect).toBeCloseTo(16 / 9, 9);
    handle.dispose();
  });
});
