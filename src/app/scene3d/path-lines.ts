/**
 * three.js lines of TCP paths [M, H + 1, 3]: the executed part of each chunk
 * (the first n_action_steps moves) solid, the rest of the horizon faint, the
 * deterministic ODE path on top. No DOM; the caller adds the group to a scene.
 */
import * as THREE from 'three';

export const PATH_COLORS = { chain: 0x2563eb, ode: 0xb91c1c } as const;

function line(points: Float32Array, from: number, to: number, material: THREE.LineBasicMaterial): THREE.Line {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(points.slice(from * 3, (to + 1) * 3), 3));
  const object = new THREE.Line(geometry, material);
  // Paths are drawn over the arm, so they stay visible inside the gripper.
  object.renderOrder = 2;
  return object;
}

function dots(points: Float32Array, color: number, sizePx: number): THREE.Points {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(points, 3));
  const object = new THREE.Points(geometry, new THREE.PointsMaterial({ color, size: sizePx, sizeAttenuation: false, depthTest: false }));
  object.renderOrder = 3;
  return object;
}

/** paths: [M, H + 1, 3]; odePath: [H + 1, 3]. */
export function buildPathLines(paths: Float32Array, odePath: Float32Array, count: number, horizon: number, nActionSteps: number): THREE.Group {
  const group = new THREE.Group();
  group.name = 'tcp-paths';
  const executed = Math.min(nActionSteps, horizon);
  const material = (color: number, opacity: number) => new THREE.LineBasicMaterial({ color, transparent: true, opacity, depthTest: false });
  const chainExecuted = material(PATH_COLORS.chain, 0.85);
  const chainRest = material(PATH_COLORS.chain, 0.25);
  const odeExecuted = material(PATH_COLORS.ode, 1);
  const odeRest = material(PATH_COLORS.ode, 0.4);
  const add = (points: Float32Array, solid: THREE.LineBasicMaterial, faint: THREE.LineBasicMaterial) => {
    group.add(line(points, 0, executed, solid));
    if (executed < horizon) group.add(line(points, executed, horizon, faint));
  };
  for (let chainIndex = 0; chainIndex < count; chainIndex++) {
    add(paths.subarray(chainIndex * (horizon + 1) * 3, (chainIndex + 1) * (horizon + 1) * 3), chainExecuted, chainRest);
  }
  add(odePath, odeExecuted, odeRest);
  // End points as screen-sized dots, so the spread reads even when the paths are short.
  const ends = new Float32Array(count * 3);
  for (let chainIndex = 0; chainIndex < count; chainIndex++) ends.set(paths.subarray(((chainIndex + 1) * (horizon + 1) - 1) * 3, (chainIndex + 1) * (horizon + 1) * 3), chainIndex * 3);
  group.add(dots(ends, PATH_COLORS.chain, 5), dots(odePath.slice(horizon * 3, (horizon + 1) * 3), PATH_COLORS.ode, 7));
  return group;
}

export function disposePathLines(group: THREE.Group): void {
  const materials = new Set<THREE.Material>();
  group.traverse((object) => {
    if (object instanceof THREE.Line || object instanceof THREE.Points) {
      object.geometry.dispose();
      materials.add(object.material as THREE.Material);
    }
  });
  materials.forEach((material) => material.dispose());
  group.removeFromParent();
}
