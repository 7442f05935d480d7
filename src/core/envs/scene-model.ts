/**
 * One compiled task scene: the MjModel shared by every env of a batch, and name lookups.
 * Whatever a task reads about its robot and objects it resolves from here by name.
 * One owner calls dispose().
 */
import { TaskError } from '../errors';
import type { Mujoco, MjData, MjModel } from './mujoco-types';
import type { NamedKind } from './task-api';
import { compileModel, type SceneSource } from './task-scene';

export class SceneModel {
  readonly model: MjModel;
  readonly nq: number;
  readonly nv: number;
  readonly nu: number;
  /** The keyframe episodes start from, or -1 for qpos0. */
  readonly keyId: number;
  private disposed = false;

  /**
   * `keyframe` names the start pose; without one a keyframe called 'home' is used when the scene has it.
   * `islands: false` switches MuJoCo's constraint-island discovery off (TaskSpec.islands).
   */
  constructor(readonly mj: Mujoco, readonly source: SceneSource, keyframe?: string, origin = 'the task', options: { islands?: boolean } = {}) {
    this.model = compileModel(mj, source, origin);
    if (options.islands === false) (this.model.opt as unknown as { disableflags: number }).disableflags |= mj.mjtDisableBit.mjDSBL_ISLAND.value;
    this.nq = this.model.nq;
    this.nv = this.model.nv;
    this.nu = this.model.nu;
    this.keyId = this.id('key', keyframe ?? 'home');
    if (keyframe !== undefined && this.keyId < 0) {
      this.model.delete();
      throw new TaskError(`${origin}: keyframe '${keyframe}' is not a keyframe of the scene`);
    }
  }

  /** Id of a named object (mocap: its mocap index; key: a keyframe), or -1 when the scene has none. */
  id(kind: NamedKind | 'key', name: string): number {
    const { mj, model } = this;
    const types = { body: mj.mjtObj.mjOBJ_BODY, joint: mj.mjtObj.mjOBJ_JOINT, geom: mj.mjtObj.mjOBJ_GEOM, site: mj.mjtObj.mjOBJ_SITE,
      actuator: mj.mjtObj.mjOBJ_ACTUATOR, sensor: mj.mjtObj.mjOBJ_SENSOR, mocap: mj.mjtObj.mjOBJ_BODY, key: mj.mjtObj.mjOBJ_KEY };
    const id = mj.mj_name2id(model, types[kind].value, name);
    if (kind !== 'mocap' || id < 0) return id;
    return (model.body_mocapid as Int32Array)[id];
  }

  /** qpos address of a named joint; a TaskError names a joint the scene lacks. */
  qposAddress(joint: string): number {
    return (this.model.jnt_qposadr as Int32Array)[this.requireJoint(joint)];
  }

  /** qvel (dof) address of a named joint. */
  qvelAddress(joint: string): number {
    return (this.model.jnt_dofadr as Int32Array)[this.requireJoint(joint)];
  }

  private requireJoint(joint: string): number {
    const id = this.id('joint', joint);
    if (id < 0) throw new TaskError(`the scene has no joint named '${joint}'`);
    return id;
  }

  /** qpos at the start pose: the keyframe's, or qpos0. */
  startQpos(): Float64Array {
    const { model, nq } = this;
    const source = this.keyId >= 0 ? (model.key_qpos as Float64Array).subarray(this.keyId * nq, (this.keyId + 1) * nq) : (model.qpos0 as Float64Array);
    return Float64Array.from(source);
  }

  /** [nmocap × 3] where the scene puts its mocap bodies. */
  startMocapPos(): Float64Array {
    const { model } = this;
    const out = new Float64Array(model.nmocap * 3);
    const mocapIds = model.body_mocapid as Int32Array;
    const bodyPos = model.body_pos as Float64Array;
    for (let body = 0; body < mocapIds.length; body++) {
      if (mocapIds[body] >= 0) out.set(bodyPos.subarray(body * 3, body * 3 + 3), mocapIds[body] * 3);
    }
    return out;
  }

  createData(): MjData {
    return new this.mj.MjData(this.model);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.model.delete();
  }
}
