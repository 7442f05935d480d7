/**
 * Observation specs and writers (DESIGN.md §5). Every observation is one flat
 * Float32Array row; the spec names its slices.
 *
 * state:      joint_qpos 7 | joint_qvel 7 | gripper_qpos 2 | tcp_pos 3 | tcp_quat 4 | task slices
 * pointcloud: points N×3 | joint_qpos 7 | gripper_qpos 2 | tcp_pos 3 | task extras (goal)
 */
import type { ObsMode, ObsSlice, ObsSpec, TaskDefinition, TaskView } from './task-types';
import { ARM_DOF } from './scene-model';
import { createSurfaceSampler, DEFAULT_NUM_POINTS, writePointCloud, type SurfaceSampler } from './pointcloud';

type SliceDef = Omit<ObsSlice, 'start'>;

const STATE_PROPRIO: readonly SliceDef[] = [
  { name: 'joint_qpos', dim: 7, doc: 'arm joint angles (rad)' },
  { name: 'joint_qvel', dim: 7, doc: 'arm joint velocities (rad/s)' },
  { name: 'gripper_qpos', dim: 2, doc: 'finger slide positions, 0 closed to 0.04 open (m)' },
  { name: 'tcp_pos', dim: 3, doc: 'tool centre point, world frame (m)' },
  { name: 'tcp_quat', dim: 4, doc: 'TCP orientation, unit quaternion (w, x, y, z)' },
];

const POINTCLOUD_PROPRIO: readonly SliceDef[] = [
  { name: 'joint_qpos', dim: 7, doc: 'arm joint angles (rad)' },
  { name: 'gripper_qpos', dim: 2, doc: 'finger slide positions (m)' },
  { name: 'tcp_pos', dim: 3, doc: 'tool centre point, world frame (m)' },
];

function layout(mode: ObsMode, defs: readonly SliceDef[], numPoints?: number): ObsSpec {
  let start = 0;
  const slices = defs.map((def) => {
    const slice = { ...def, start };
    start += def.dim;
    return slice;
  });
  return { mode, dim: start, slices, ...(numPoints !== undefined ? { numPoints } : {}) };
}

export function observationSpec(task: TaskDefinition, mode: ObsMode, numPoints = DEFAULT_NUM_POINTS): ObsSpec {
  if (mode === 'state') return layout('state', [...STATE_PROPRIO, ...task.taskStateSlices]);
  return layout('pointcloud', [
    { name: 'points', dim: numPoints * 3, doc: `${numPoints} surface points [N, 3], world frame (m)` },
    ...POINTCLOUD_PROPRIO,
    ...task.pointcloudExtraSlices,
  ], numPoints);
}

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

/** Writes one observation row; `sampler` is required in point-cloud mode. */
export class ObservationWriter {
  readonly spec: ObsSpec;
  private readonly sampler: SurfaceSampler | null;

  constructor(readonly task: TaskDefinition, view: Pick<TaskView, 'scene'>, mode: ObsMode, numPoints = DEFAULT_NUM_POINTS) {
    this.spec = observationSpec(task, mode, numPoints);
    this.sampler = mode === 'pointcloud' ? createSurfaceSampler(view.scene, numPoints) : null;
  }

  write(view: TaskView, out: Float32Array, offset: number): void {
    const qpos = view.arrays.qpos;
    const qvel = view.arrays.qvel;
    const sitePos = view.arrays.siteXpos;
    const fingerAdr = view.scene.fingerQposAdr;
    const tcp = view.scene.tcpSiteId;
    let cursor = offset;
    if (this.sampler) {
      writePointCloud(this.sampler, view.arrays, out, cursor);
      cursor += this.sampler.numPoints * 3;
    }
    for (let joint = 0; joint < ARM_DOF; joint++) out[cursor++] = qpos[joint];
    if (!this.sampler) for (let joint = 0; joint < ARM_DOF; joint++) out[cursor++] = qvel[joint];
    out[cursor++] = qpos[fingerAdr];
    out[cursor++] = qpos[fingerAdr + 1];
    for (let axis = 0; axis < 3; axis++) out[cursor++] = sitePos[tcp * 3 + axis];
    if (!this.sampler) {
      matToQuat(view.arrays.siteXmat, tcp * 9, out, cursor);
      cursor += 4;
      this.task.writeTaskState(view, out, cursor);
    } else {
      this.task.writePointcloudExtras(view, out, cursor);
    }
  }

  get pointSampler(): SurfaceSampler | null {
    return this.sampler;
  }
}
