/**
 * The arm's proprioception as observation groups: in a state observation joint angles and
 * velocities, finger slides, the TCP position and orientation; beside a point cloud or camera
 * images the joint angles, finger slides and TCP position.
 */
import type { ObservationGroup } from '../../core/envs/task-api';
import { ARM_DOF } from './arm-scene';
import { armView } from './arm-view';

/** Rotation matrix (row-major) to unit quaternion (w, x, y, z) with w ≥ 0. */
export function matToQuat(m: ArrayLike<number>, offset: number, out: Float32Array, outOffset: number): void {
  const m00 = m[offset], m01 = m[offset + 1], m02 = m[offset + 2];
  const m10 = m[offset + 3], m11 = m[offset + 4], m12 = m[offset + 5];
  const m20 = m[offset + 6], m21 = m[offset + 7], m22 = m[offset + 8];
  let w: number, x: number, y: number, z: number;
  const trace = m00 + m11 + m22;
  if (trace > 0) {
    const s = 2 * Math.sqrt(trace + 1);
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  const sign = w < 0 ? -1 : 1;
  out[outOffset] = sign * w; out[outOffset + 1] = sign * x; out[outOffset + 2] = sign * y; out[outOffset + 3] = sign * z;
}

/** State observation: joint_qpos 7 | joint_qvel 7 | gripper_qpos 2 | tcp_pos 3 | tcp_quat 4. */
export const ARM_STATE_PROPRIO: ObservationGroup = {
  slices: [
    { name: 'joint_qpos', dim: ARM_DOF, doc: 'arm joint angles (rad)' },
    { name: 'joint_qvel', dim: ARM_DOF, doc: 'arm joint velocities (rad/s)' },
    { name: 'gripper_qpos', dim: 2, doc: 'finger slide positions, 0 closed to 0.04 open (m)' },
    { name: 'tcp_pos', dim: 3, doc: 'tool centre point, world frame (m)' },
    { name: 'tcp_quat', dim: 4, doc: 'TCP orientation, unit quaternion (w, x, y, z)' },
  ],
  read(view, out, offset) {
    const { scene, arrays } = armView(view);
    const { qpos, qvel, siteXpos } = arrays;
    let cursor = offset;
    for (let joint = 0; joint < ARM_DOF; joint++) out[cursor++] = qpos[joint];
    for (let joint = 0; joint < ARM_DOF; joint++) out[cursor++] = qvel[joint];
    out[cursor++] = qpos[scene.fingerQposAdr];
    out[cursor++] = qpos[scene.fingerQposAdr + 1];
    for (let axis = 0; axis < 3; axis++) out[cursor++] = siteXpos[scene.tcpSiteId * 3 + axis];
    matToQuat(arrays.siteXmat, scene.tcpSiteId * 9, out, cursor);
  },
};

/** Beside a point cloud or camera images: joint_qpos 7 | gripper_qpos 2 | tcp_pos 3. */
export const ARM_POINTCLOUD_PROPRIO: ObservationGroup = {
  slices: [
    { name: 'joint_qpos', dim: ARM_DOF, doc: 'arm joint angles (rad)' },
    { name: 'gripper_qpos', dim: 2, doc: 'finger slide positions (m)' },
    { name: 'tcp_pos', dim: 3, doc: 'tool centre point, world frame (m)' },
  ],
  modes: ['pointcloud', 'rgb', 'rgbd'],
  read(view, out, offset) {
    const { scene, arrays } = armView(view);
    const { qpos, siteXpos } = arrays;
    let cursor = offset;
    for (let joint = 0; joint < ARM_DOF; joint++) out[cursor++] = qpos[joint];
    out[cursor++] = qpos[scene.fingerQposAdr];
    out[cursor++] = qpos[scene.fingerQposAdr + 1];
    for (let axis = 0; axis < 3; axis++) out[cursor++] = siteXpos[scene.tcpSiteId * 3 + axis];
  },
};
