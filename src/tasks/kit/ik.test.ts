import { describe, expect, it } from 'vitest';
import { createRng } from '../../core/random';
import { solveSpdInPlace } from './linalg';
import { dlsIkStep, orientationError } from './ik';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { SceneModel } from '../../core/envs/scene-model';
import { ARM_DOF, armScene } from './arm-scene';
import { reachMjcf } from '../reach/scene';
import { ARM_HOME_QPOS, ARM_JOINT_RANGES } from './robot-mjcf';
import { IK_DAMPING, TCP_TARGET_ROTATION } from './arm-controls';
import { DataArrays } from '../../core/envs/data-arrays';

/** Plain Gauss-Jordan inverse of a small matrix (float64 reference). */
function inverse(matrix: number[][]): number[][] {
  const n = matrix.length;
  const aug = matrix.map((row, r) => [...row, ...Array.from({ length: n }, (_, c) => (c === r ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(aug[r][col]) > Math.abs(aug[pivot][col])) pivot = r;
    [aug[col], aug[pivot]] = [aug[pivot], aug[col]];
    const p = aug[col][col];
    for (let c = 0; c < 2 * n; c++) aug[col][c] /= p;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = aug[r][col];
      for (let c = 0; c < 2 * n; c++) aug[r][c] -= factor * aug[col][c];
    }
  }
  return aug.map((row) => row.slice(n));
}

describe('solveSpdInPlace', () => {
  it('solves a hand-checked 2×2 system', () => {
    // [[4, 2], [2, 3]] x = [2, 1]: det 8, x = [(3·2 − 2·1)/8, (4·1 − 2·2)/8] = [0.5, 0].
    const b = new Float64Array([2, 1]);
    solveSpdInPlace(new Float64Array([4, 2, 2, 3]), b, 2);
    expect(b[0]).toBeCloseTo(0.5, 12);
    expect(b[1]).toBeCloseTo(0, 12);
  });

  it('matches a Gauss-Jordan reference on random SPD matrices', () => {
    const rng = createRng(11);
    for (let trial = 0; trial < 5; trial++) {
      const n = 6;
      const m = Array.from({ length: n }, () => Array.from({ length: n }, () => rng.normal()));
      const spd = m.map((_, r) => m.map((__, c) => m[r].reduce((s, v, k) => s + v * m[c][k], 0) + (r === c ? 0.5 : 0)));
      const rhs = Array.from({ length: n }, () => rng.normal());
      const inv = inverse(spd);
      const expected = inv.map((row) => row.reduce((s, v, k) => s + v * rhs[k], 0));
      const b = Float64Array.from(rhs);
      solveSpdInPlace(Float64Array.from(spd.flat()), b, n);
      for (let r = 0; r < n; r++) expect(b[r]).toBeCloseTo(expected[r], 9);
    }
  });
});

describe('dlsIkStep', () => {
  it('matches Jᵀ(JJᵀ+λ²I)⁻¹e + (I − Jᵀ(JJᵀ+λ²I)⁻¹J)z on random inputs', () => {
    const rng = createRng(5);
    const rows = 6, cols = 7, damping = 0.1;
    const jac = Array.from({ length: rows }, () => Array.from({ length: cols }, () => rng.normal()));
    const error = Array.from({ length: rows }, () => rng.normal());
    const bias = Array.from({ length: cols }, () => rng.normal());
    const gram = jac.map((rowA, r) => jac.map((rowB, c) => rowA.reduce((s, v, k) => s + v * rowB[k], 0) + (r === c ? damping * damping : 0)));
    const gramInv = inverse(gram);
    const pinvApply = (v: number[]) => {
      const y = gramInv.map((row) => row.reduce((s, g, k) => s + g * v[k], 0));
      return Array.from({ length: cols }, (_, k) => jac.reduce((s, row, r) => s + row[k] * y[r], 0));
    };
    const jz = jac.map((row) => row.reduce((s, v, k) => s + v * bias[k], 0));
    const primary = pinvApply(error);
    const projected = pinvApply(jz);
    const expected = primary.map((p, k) => p + bias[k] - projected[k]);
    const out = new Float64Array(cols);
    dlsIkStep(Float64Array.from(jac.flat()), rows, cols, Float64Array.from(error), damping, Float64Array.from(bias), out);
    for (let k = 0; k < cols; k++) expect(out[k]).toBeCloseTo(expected[k], 9);
  });

  it('with zero damping and an invertible square J returns J⁻¹e', () => {
    // J = diag(2, 4), e = [1, 1] → dq = [0.5, 0.25].
    const out = new Float64Array(2);
    dlsIkStep(new Float64Array([2, 0, 0, 4]), 2, 2, new Float64Array([1, 1]), 0, null, out);
    expect(out[0]).toBeCloseTo(0.5, 12);
    expect(out[1]).toBeCloseTo(0.25, 12);
  });
});

describe('orientationError', () => {
  it('is zero for equal rotations and ½ Σ c×t for a 90° turn about z', () => {
    const out = new Float64Array(3);
    orientationError(TCP_TARGET_ROTATION, TCP_TARGET_ROTATION, out);
    expect([...out]).toEqual([0, 0, 0]);
    // current = I, target = Rz(90°): columns t0 = (0,1,0), t1 = (−1,0,0), t2 = (0,0,1).
    // c0×t0 = x×y = z, c1×t1 = y×(−x) = z, c2×t2 = 0 → e = ½(0, 0, 2) = (0, 0, 1).
    orientationError([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, -1, 0, 1, 0, 0, 0, 0, 1], out);
    expect(out[0]).toBeCloseTo(0, 12);
    expect(out[1]).toBeCloseTo(0, 12);
    expect(out[2]).toBeCloseTo(1, 12);
  });
});

describe('IK on the arm', () => {
  it('computes the same TCP Jacobian from joint axes as mj_jacSite', async () => {
    const mj = await loadMujocoNode();
    const scene = new SceneModel(mj, { xml: reachMjcf(), assets: new Map() });
    const arm = armScene(mj, scene.model);
    const data = scene.createData();
    try {
      const rng = createRng(8);
      const reference = new Float64Array(6 * ARM_DOF);
      const fast = new Float64Array(6 * ARM_DOF);
      for (let trial = 0; trial < 5; trial++) {
        const qpos = data.qpos as Float64Array;
        for (let joint = 0; joint < ARM_DOF; joint++) {
          const [low, high] = ARM_JOINT_RANGES[joint];
          qpos[joint] = low + (high - low) * rng.uniform();
        }
        mj.mj_forward(scene.model, data);
        arm.tcpJacobian(data, reference);
        arm.tcpJacobianFast(new DataArrays(data), fast);
        for (let element = 0; element < reference.length; element++) expect(fast[element]).toBeCloseTo(reference[element], 10);
      }
    } finally {
      data.delete();
      scene.dispose();
    }
  });

  it('converges to reachable TCP targets with the gripper pointing down', async () => {
    const mj = await loadMujocoNode();
    const scene = new SceneModel(mj, { xml: reachMjcf(), assets: new Map() });
    const arm = armScene(mj, scene.model);
    const data = scene.createData();
    try {
      const rng = createRng(3);
      const jac = new Float64Array(6 * ARM_DOF);
      const error = new Float64Array(6);
      const dq = new Float64Array(ARM_DOF);
      for (let trial = 0; trial < 8; trial++) {
        // A reachable target: forward kinematics of a random posture near home whose TCP points down,
        // found by solving orientation-only from a perturbed posture first.
        const target = [0.35 + 0.3 * rng.uniform(), -0.2 + 0.4 * rng.uniform(), 0.08 + 0.3 * rng.uniform()];
        const qpos = data.qpos as Float64Array;
        for (let joint = 0; joint < ARM_DOF; joint++) qpos[joint] = ARM_HOME_QPOS[joint];
        let positionError = Infinity, rotationError = Infinity;
        for (let iteration = 0; iteration < 100; iteration++) {
          mj.mj_kinematics(scene.model, data);
          mj.mj_comPos(scene.model, data); // the Jacobian reads cdof, computed here
          const sitePos = data.site_xpos as Float64Array;
          for (let axis = 0; axis < 3; axis++) error[axis] = target[axis] - sitePos[arm.tcpSiteId * 3 + axis];
          orientationError((data.site_xmat as Float64Array).subarray(arm.tcpSiteId * 9, arm.tcpSiteId * 9 + 9), TCP_TARGET_ROTATION, error, 3);
          positionError = Math.hypot(error[0], error[1], error[2]);
          rotationError = Math.hypot(error[3], error[4], error[5]);
          arm.tcpJacobian(data, jac);
          dlsIkStep(jac, 6, ARM_DOF, error, IK_DAMPING, null, dq);
          const q = data.qpos as Float64Array;
          for (let joint = 0; joint < ARM_DOF; joint++) {
            const [low, high] = ARM_JOINT_RANGES[joint];
            q[joint] = Math.min(high, Math.max(low, q[joint] + dq[joint]));
          }
        }
        expect(positionError).toBeLessThan(1e-3);
        expect(rotationError).toBeLessThan(1e-3);
      }
    } finally {
      data.delete();
      scene.dispose();
    }
  });
});
