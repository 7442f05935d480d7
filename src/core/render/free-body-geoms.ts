/**
 * The loose objects of a scene: geoms on a body that a free joint moves (its own or an
 * ancestor's). An observation without their pose (a point cloud) cannot place them, so views
 * leave them out rather than draw them at their start pose.
 */
import type { SceneModel } from '../envs/scene-model';

/** [≤ G] slots in `visible` (visibleGeomIds order) of the geoms on free-moving bodies. */
export function freeBodyGeomSlots(scene: SceneModel, visible: readonly number[]): number[] {
  const { mj, model } = scene;
  const free = mj.mjtJoint.mjJNT_FREE.value;
  const jointType = model.jnt_type as Int32Array;
  const jointStart = model.body_jntadr as Int32Array;
  const jointCount = model.body_jntnum as Int32Array;
  const parent = model.body_parentid as Int32Array;
  const geomBody = model.geom_bodyid as Int32Array;
  const hasFreeJoint = (body: number) => {
    for (let joint = 0; joint < jointCount[body]; joint++) if (jointType[jointStart[body] + joint] === free) return true;
    return false;
  };
  // Body 0 is the world, which never moves.
  const floats = (body: number): boolean => body > 0 && (hasFreeJoint(body) || floats(parent[body]));
  return visible.flatMap((geomId, slot) => (floats(geomBody[geomId]) ? [slot] : []));
}
