/**
 * A three.js scene of a task (DESIGN.md §7: the main thread and the video worker
 * render with WebGL): one mesh per visible MJCF geom, posed per frame from
 * EpisodePoses. It never touches the DOM or `window`, so it also runs in a
 * worker on an OffscreenCanvas; the caller owns the WebGLRenderer.
 */
import * as THREE from 'three';
import type { EpisodePoses, GeomVisual, SceneVisual } from '../core/render/scene-visual';

export interface ThreeSceneHandle {
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  /** Poses every geom mesh as in `frame` (clamped to [0, frames − 1]). */
  setFrame(poses: EpisodePoses, frame: number): void;
  /** Where the camera should look at `frame`: the scene's target moved in x and y with the tracked geom (visual.trackGeom). */
  trackedTarget(poses: EpisodePoses, frame: number): [number, number, number];
  setAspect(aspect: number): void;
  /** Leaves the geoms at these slots out of the drawing (and draws every other). */
  setHidden(slots: readonly number[]): void;
  dispose(): void;
}

/** Floats per geom per frame in EpisodePoses.poses: position (3), row-major rotation (9). */
const POSE_STRIDE = 12;
const CAMERA_FOVY_DEG = 40;
const BACKGROUND = 0xe9ecf1;

/** A geometry in MuJoCo's geom frame: capsules and cylinders run along local z (three.js builds them along y). */
function geomGeometry(geom: GeomVisual): THREE.BufferGeometry {
  const [a, b, c] = geom.size;
  switch (geom.shape) {
    case 'plane':
      // size 0 means an infinite plane in MuJoCo; draw a large finite one.
      return new THREE.PlaneGeometry(2 * (a > 0 ? a : 10), 2 * (b > 0 ? b : 10));
    case 'sphere':
      return new THREE.SphereGeometry(a, 24, 16);
    case 'capsule':
      return new THREE.CapsuleGeometry(a, 2 * b, 8, 20).rotateX(Math.PI / 2);
    case 'cylinder':
      return new THREE.CylinderGeometry(a, a, 2 * b, 24).rotateX(Math.PI / 2);
    case 'box':
      return new THREE.BoxGeometry(2 * a, 2 * b, 2 * c);
    case 'mesh': {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.Float32BufferAttribute(geom.mesh?.vertices ?? [], 3));
      geometry.setIndex(geom.mesh?.faces ?? []);
      geometry.computeVertexNormals();
      return geometry;
    }
  }
}

function geomMaterial(geom: GeomVisual): THREE.Material {
  const [r, g, b, alpha] = geom.rgba;
  const color = new THREE.Color().setRGB(r, g, b, THREE.SRGBColorSpace);
  const transparent = alpha < 1;
  return new THREE.MeshStandardMaterial({
    color, roughness: 0.75, metalness: 0.05, transparent, opacity: alpha, depthWrite: !transparent,
    side: geom.shape === 'plane' ? THREE.DoubleSide : THREE.FrontSide,
  });
}

/** Builds the scene of `visual`; meshes start at the origin until setFrame. */
export function buildThreeScene(visual: SceneVisual): ThreeSceneHandle {
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(BACKGROUND);
  const camera = new THREE.PerspectiveCamera(CAMERA_FOVY_DEG, 4 / 3, 0.02, 20);
  camera.up.set(0, 0, 1);
  camera.position.set(...visual.camera.position);
  camera.lookAt(new THREE.Vector3(...visual.camera.target));

  scene.add(new THREE.HemisphereLight(0xffffff, 0x5a5f66, 1.6));
  const key = new THREE.DirectionalLight(0xffffff, 1.8);
  key.position.set(0.9, -0.6, 1.8);
  key.target.position.set(0.35, 0, 0);
  key.castShadow = true;
  key.shadow.mapSize.set(1024, 1024);
  Object.assign(key.shadow.camera, { left: -1, right: 1, top: 1, bottom: -1, near: 0.1, far: 4 });
  scene.add(key, key.target);

  const meshes = visual.geoms.map((geom) => {
    const mesh = new THREE.Mesh(geomGeometry(geom), geomMaterial(geom));
    mesh.name = geom.name;
    mesh.matrixAutoUpdate = false;
    mesh.castShadow = geom.shape !== 'plane' && geom.rgba[3] >= 1;
    mesh.receiveShadow = true;
    // Translucent markers draw after the opaque geoms.
    if (geom.rgba[3] < 1) mesh.renderOrder = 1;
    scene.add(mesh);
    return mesh;
  });

  const matrix = new THREE.Matrix4();
  return {
    scene,
    camera,
    trackedTarget(poses, frame) {
      const target: [number, number, number] = [...visual.camera.target];
      const slot = visual.trackGeom;
      if (slot === undefined) return target;
      const clamped = Math.min(Math.max(0, Math.round(frame)), poses.frames - 1);
      const at = (index: number) => (index * poses.geomCount + slot) * POSE_STRIDE;
      // The offset of the camera's target from the tracked geom at the first frame is kept.
      for (let axis = 0; axis < 2; axis++) target[axis] += poses.poses[at(clamped) + axis] - poses.poses[at(0) + axis];
      return target;
    },
    setFrame(poses, frame) {
      if (poses.geomCount !== meshes.length) {
        throw new RangeError(`poses.geomCount (${poses.geomCount}) must equal the scene's geoms (${meshes.length}): build the scene from the same task`);
      }
      const clamped = Math.min(Math.max(0, Math.round(frame)), poses.frames - 1);
      const p = poses.poses;
      meshes.forEach((mesh, slot) => {
        const base = (clamped * meshes.length + slot) * POSE_STRIDE;
        matrix.set(
          p[base + 3], p[base + 4], p[base + 5], p[base],
          p[base + 6], p[base + 7], p[base + 8], p[base + 1],
          p[base + 9], p[base + 10], p[base + 11], p[base + 2],
          0, 0, 0, 1,
        );
        mesh.matrix.copy(matrix);
        mesh.matrixWorldNeedsUpdate = true;
      });
    },
    setAspect(aspect) {
      camera.aspect = aspect;
      camera.updateProjectionMatrix();
    },
    setHidden(slots) {
      const hidden = new Set(slots);
      meshes.forEach((mesh, slot) => {
        mesh.visible = !hidden.has(slot);
      });
    },
    dispose() {
      for (const mesh of meshes) {
        mesh.geometry.dispose();
        (mesh.material as THREE.Material).dispose();
      }
      scene.clear();
    },
  };
}
