/**
 * One MjData's exact state for a resumed run (DESIGN.md §6 "Resume state"): MuJoCo's
 * integration state (time, qpos, qvel, act, warm start, ctrl, applied forces, mocap, ...)
 * plus the derived fields the controller, observation and task read before the next
 * mj_step recomputes them. mj_step leaves those fields at the pre-integration positions,
 * so an mj_forward after a restore would give different bits than a run that never stopped.
 */
import { EnvError } from '../errors';
import type { DataArrays } from './data-arrays';
import type { SceneModel } from './scene-model';

/** Derived fields read between steps, in a fixed order. */
const DERIVED_FIELDS = ['siteXpos', 'siteXmat', 'sensordata', 'geomXpos', 'geomXmat', 'xanchor', 'xaxis'] as const;

function integrationSpec(scene: SceneModel): number {
  return scene.mj.mjtState.mjSTATE_INTEGRATION.value;
}

/** Doubles in one env's physics snapshot. */
export function physicsStateSize(scene: SceneModel, arrays: DataArrays): number {
  const derived = DERIVED_FIELDS.reduce((sum, field) => sum + arrays[field].length, 0);
  return scene.mj.mj_stateSize(scene.model, integrationSpec(scene)) + derived;
}

/** [physicsStateSize] float64: the integration state, then the derived fields. */
export function capturePhysics(scene: SceneModel, arrays: DataArrays): Float64Array {
  const { mj, model } = scene;
  const spec = integrationSpec(scene);
  const stateSize = mj.mj_stateSize(model, spec);
  const out = new Float64Array(physicsStateSize(scene, arrays));
  const buffer = new mj.DoubleBuffer(stateSize);
  try {
    mj.mj_getState(model, arrays.data, buffer.GetView(), spec);
    // The view is re-read after the call: the wasm heap may have grown.
    out.set(buffer.GetView() as Float64Array);
  } finally {
    buffer.delete();
  }
  let offset = stateSize;
  for (const field of DERIVED_FIELDS) {
    out.set(arrays[field], offset);
    offset += arrays[field].length;
  }
  return out;
}

/** Writes a snapshot from capturePhysics back into the env's MjData. */
export function restorePhysics(scene: SceneModel, arrays: DataArrays, state: Float64Array): void {
  const { mj, model } = scene;
  const spec = integrationSpec(scene);
  const stateSize = mj.mj_stateSize(model, spec);
  const expected = physicsStateSize(scene, arrays);
  if (state.length !== expected) {
    throw new EnvError(`saved physics state has ${state.length} values, but this scene needs ${expected}; the checkpoint was saved for another scene`);
  }
  const buffer = new mj.DoubleBuffer(stateSize);
  try {
    (buffer.GetView() as Float64Array).set(state.subarray(0, stateSize));
    mj.mj_setState(model, arrays.data, buffer.GetView(), spec);
  } finally {
    buffer.delete();
  }
  let offset = stateSize;
  for (const field of DERIVED_FIELDS) {
    const view = arrays[field];
    view.set(state.subarray(offset, offset + view.length));
    offset += view.length;
  }
}
