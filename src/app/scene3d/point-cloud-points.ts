/**
 * three.js points of the point cloud a policy sees, each coloured by the share of
 * the PointNet's max-pool channels it wins: grey for none, through amber, to red
 * for the top share. No DOM; the caller adds the points to a scene.
 */
import * as THREE from 'three';

/**
 * The colour ramp's stops (CSS hex, also used by the legend): no share, half the top share, the top share.
 * The top is orange, not red, so a winning point never reads as the ODE chunk's red end dot.
 */
export const SHARE_RAMP = ['#8b94a3', '#fbbf24', '#ea580c'] as const;

/** The stops in three.js's working (linear) colour space, as vertex colours need. */
const RAMP_RGB = SHARE_RAMP.map((hex) => new THREE.Color(hex).toArray() as [number, number, number]);

/** [N, 3] working-space colours: share / (top share) placed on the ramp; all grey when no point wins. */
export function shareColors(shares: Float32Array): Float32Array {
  let top = 0;
  for (const share of shares) top = Math.max(top, share);
  const colors = new Float32Array(shares.length * 3);
  const segments = RAMP_RGB.length - 1;
  for (let pointIndex = 0; pointIndex < shares.length; pointIndex++) {
    const position = top > 0 ? (shares[pointIndex] / top) * segments : 0;
    const segment = Math.min(segments - 1, Math.floor(position));
    const within = position - segment;
    for (let channel = 0; channel < 3; channel++) {
      const from = RAMP_RGB[segment][channel];
      colors[pointIndex * 3 + channel] = from + (RAMP_RGB[segment + 1][channel] - from) * within;
    }
  }
  return colors;
}

/** points: [N, 3] world frame; shares: [N]. Points are drawn in rising share, so winners land on top of grey ones. */
export function buildPointCloud(points: Float32Array, shares: Float32Array): THREE.Points {
  const order = Array.from(shares.keys()).sort((a, b) => shares[a] - shares[b]);
  const sortedPoints = new Float32Array(points.length);
  const colors = shareColors(shares);
  const sortedColors = new Float32Array(colors.length);
  order.forEach((pointIndex, slot) => {
    sortedPoints.set(points.subarray(pointIndex * 3, pointIndex * 3 + 3), slot * 3);
    sortedColors.set(colors.subarray(pointIndex * 3, pointIndex * 3 + 3), slot * 3);
  });
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(sortedPoints, 3));
  const colorAttribute = new THREE.BufferAttribute(sortedColors, 3);
  geometry.setAttribute('color', colorAttribute);
  const material = new THREE.PointsMaterial({ size: 4, sizeAttenuation: false, vertexColors: true, depthTest: false });
  const cloud = new THREE.Points(geometry, material);
  cloud.name = 'policy-point-cloud';
  // The points lie on the meshes' surfaces: drawn over them (and under the paths), they never flicker.
  cloud.renderOrder = 1;
  return cloud;
}

/** [3] the mean of the points [N, 3]. */
export function cloudCentroid(points: Float32Array): [number, number, number] {
  const centroid: [number, number, number] = [0, 0, 0];
  const count = points.length / 3;
  for (let pointIndex = 0; pointIndex < count; pointIndex++) {
    for (let axis = 0; axis < 3; axis++) centroid[axis] += points[pointIndex * 3 + axis] / count;
  }
  return centroid;
}

export function disposePointCloud(cloud: THREE.Points): void {
  cloud.geometry.dispose();
  (cloud.material as THREE.Material).dispose();
  cloud.removeFromParent();
}
