/**
 * Helpers shared by the scripted experts: a proportional Cartesian move in
 * ee_delta_pos units and Gaussian action noise.
 */
import type { Rng } from '../../core/envs/task-api';
import { EE_DELTA_LIMIT } from './arm-controls';

/** Fraction of the remaining TCP error the expert asks for in one control step. */
export const EXPERT_GAIN = 0.9;

/** Writes out[0..2] = clip(gain·(target − tcp) / EE_DELTA_LIMIT, −1, 1) and out[3] = gripper. */
export function moveToward(tcp: ArrayLike<number>, target: ArrayLike<number>, gripper: number, out: Float32Array, gain = EXPERT_GAIN): void {
  for (let axis = 0; axis < 3; axis++) {
    const raw = (gain * (target[axis] - tcp[axis])) / EE_DELTA_LIMIT;
    out[axis] = Math.min(1, Math.max(-1, raw));
  }
  out[3] = gripper;
}

/** Adds N(0, noise²) to each action dim and clips to [-1, 1]. */
export function addActionNoise(out: Float32Array, noise: number, rng: Rng): void {
  if (noise <= 0) return;
  for (let dim = 0; dim < out.length; dim++) out[dim] = Math.min(1, Math.max(-1, out[dim] + noise * rng.normal()));
}
