/**
 * The built-in arm's view of a compiled scene: the ids and addresses its controls, observations,
 * rewards and experts read, resolved once per model by name (DESIGN.md §5), and the TCP Jacobian.
 */
import { TaskError } from '../../core/envs/task-api';
import type { MjData, MjModel, Mujoco } from '../../core/envs/task-api';
import type { DataArrays } from '../../core/envs/task-api';
import { ROBOT_NAMES } from './robot-mjcf';

export const ARM_DOF = 7;

/** Names by which a scene marks its task objects; a scene has at most one of each list. */
export const OBJECT_NAMES = {
  /** The free joint of the object the robot manipulates. */
  objectJoints: ['cube_joint', 'peg_joint'],
  objectBodies: ['cube', 'peg'],
  /** stack-cube's green cube, which the red one is placed on. */
  supportJoint: 'base_cube_joint',
  /** Mocap bodies moved to episode.goal at reset. */
  goalBodies: ['goal', 'fixture'],
} as const;

export class ArmScene {
  readonly nq: number;
  readonly nv: number;
  readonly tcpSiteId: number;
  readonly fingertipSiteIds: readonly [number, number];
  /** sensordata addresses of the two pad touch sensors. */
  readonly touchAdr: readonly [number, number];
  /** qpos address of the first finger joint; the second follows. */
  readonly fingerQposAdr: number;
  /** qpos address of the manipulated object's free joint (the cube, or the peg), or -1 without one. */
  readonly objectQposAdr: number;
  readonly objectQvelAdr: number;
  readonly objectBodyId: number;
  /** qpos/qvel address of the free joint of the object the manipulated one goes onto (stack-cube's green cube), or -1. */
  readonly supportQposAdr: number;
  readonly supportQvelAdr: number;
  /** mocap index of the body placed at episode.goal at each reset (a goal marker, or the peg fixture), or -1. */
  readonly goalMocapId: number;

  constructor(readonly mj: Mujoco, readonly model: MjModel) {
    const m = model;
    this.nq = m.nq;
    this.nv = m.nv;
    const site = mj.mjtObj.mjOBJ_SITE.value;
    this.tcpSiteId = this.requireId(site, ROBOT_NAMES.tcpSite);
    this.fingertipSiteIds = [this.requireId(site, ROBOT_NAMES.fingertipSites[0]), this.requireId(site, ROBOT_NAMES.fingertipSites[1])];
    const sensorAdr = m.sensor_adr as Int32Array;
    const sensor = mj.mjtObj.mjOBJ_SENSOR.value;
    this.touchAdr = [sensorAdr[this.requireId(sensor, ROBOT_NAMES.touchSensors[0])], sensorAdr[this.requireId(sensor, ROBOT_NAMES.touchSensors[1])]];
    const jointQposAdr = m.jnt_qposadr as Int32Array;
    const jointDofAdr = m.jnt_dofadr as Int32Array;
    const joint = mj.mjtObj.mjOBJ_JOINT.value;
    const body = mj.mjtObj.mjOBJ_BODY.value;
    this.fingerQposAdr = jointQposAdr[this.requireId(joint, ROBOT_NAMES.fingerJoints[0])];
    const objectJoint = this.firstId(joint, OBJECT_NAMES.objectJoints);
    this.objectQposAdr = objectJoint >= 0 ? jointQposAdr[objectJoint] : -1;
    this.objectQvelAdr = objectJoint >= 0 ? jointDofAdr[objectJoint] : -1;
    this.objectBodyId = this.firstId(body, OBJECT_NAMES.objectBodies);
    const supportJoint = mj.mj_name2id(m, joint, OBJECT_NAMES.supportJoint);
    this.supportQposAdr = supportJoint >= 0 ? jointQposAdr[supportJoint] : -1;
    this.supportQvelAdr = supportJoint >= 0 ? jointDofAdr[supportJoint] : -1;
    const goalBody = this.firstId(body, OBJECT_NAMES.goalBodies);
    this.goalMocapId = goalBody >= 0 ? (m.body_mocapid as Int32Array)[goalBody] : -1;
  }

  /** Id of the first of `names` the model has, or -1. */
  private firstId(type: number, names: readonly string[]): number {
    for (const name of names) {
      const id = this.mj.mj_name2id(this.model, type, name);
      if (id >= 0) return id;
    }
    return -1;
  }

  private requireId(type: number, name: string): number {
    const id = this.mj.mj_name2id(this.model, type, name);
    if (id < 0) throw new TaskError(`the arm's scene has no object named '${name}'`);
    return id;
  }

  /**
   * TCP Jacobian restricted to the arm joints: [6, 7] rows (x, y, z, rx, ry, rz), written into `out`,
   * from MuJoCo's mj_jacSite. Arm joints are the first seven dofs by construction of the MJCF.
   */
  tcpJacobian(data: MjData, out: Float64Array): Float64Array {
    const jacp = new this.mj.DoubleBuffer(3 * this.nv);
    const jacr = new this.mj.DoubleBuffer(3 * this.nv);
    try {
      this.mj.mj_jacSite(this.model, data, jacp.GetView(), jacr.GetView(), this.tcpSiteId);
      // Views are re-read after the call: the heap may have moved.
      const positional = jacp.GetView() as Float64Array;
      const rotational = jacr.GetView() as Float64Array;
      for (let row = 0; row < 3; row++) {
        for (let col = 0; col < ARM_DOF; col++) {
          out[row * ARM_DOF + col] = positional[row * this.nv + col];
          out[(row + 3) * ARM_DOF + col] = rotational[row * this.nv + col];
        }
      }
      return out;
    } finally {
      jacp.delete();
      jacr.delete();
    }
  }

  /**
   * The same [6, 7] TCP Jacobian from joint anchors and axes, without a wasm
   * call: for a hinge joint j, column j is [a_j × (p − x_j); a_j], with a_j the
   * world axis, x_j the anchor and p the TCP. Arm joints are joints 0..6.
   */
  tcpJacobianFast(arrays: DataArrays, out: Float64Array): Float64Array {
    const anchor = arrays.xanchor;
    const axis = arrays.xaxis;
    const site = arrays.siteXpos;
    const base = this.tcpSiteId * 3;
    const px = site[base], py = site[base + 1], pz = site[base + 2];
    for (let joint = 0; joint < ARM_DOF; joint++) {
      const ax = axis[joint * 3], ay = axis[joint * 3 + 1], az = axis[joint * 3 + 2];
      const rx = px - anchor[joint * 3], ry = py - anchor[joint * 3 + 1], rz = pz - anchor[joint * 3 + 2];
      out[joint] = ay * rz - az * ry;
      out[ARM_DOF + joint] = az * rx - ax * rz;
      out[2 * ARM_DOF + joint] = ax * ry - ay * rx;
      out[3 * ARM_DOF + joint] = ax;
      out[4 * ARM_DOF + joint] = ay;
      out[5 * ARM_DOF + joint] = az;
    }
    return out;
  }
}

const scenes = new WeakMap<MjModel, ArmScene>();

/** The ArmScene of a model, built once per model. */
export function armScene(mj: Mujoco, model: MjModel): ArmScene {
  let scene = scenes.get(model);
  if (!scene) {
    scene = new ArmScene(mj, model);
    scenes.set(model, scene);
  }
  return scene;
}
