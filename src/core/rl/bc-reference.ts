import * as tf from '@tensorflow/tfjs';
import { odeActions } from '../flow/ode-actions';
import { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import type { Rng } from '../random';

/**
 * A frozen copy of `policy` with the same architecture and weights: the BC regularizer's
 * reference (DESIGN.md §12). It shares no variable with the original, so training leaves it
 * as it was. The caller owns it and calls `dispose()`.
 */
export function copyPolicy(policy: FlowPolicy): FlowPolicy {
  const copy = new FlowPolicy(policy.options);
  for (const [name, variable] of policy.namedVariables()) copy.param(name).assign(variable);
  return copy;
}

/** x_0 [B, H, A] for the regularizer, drawn from `rng` (never tf.random) so a resumed run draws the same. */
export function drawBcNoise(rng: Rng, batch: number, horizon: number, actionDim: number): tf.Tensor3D {
  return tf.tensor3d(rng.fillNormal(new Float32Array(batch * horizon * actionDim)), [batch, horizon, actionDim]);
}

/**
 * The reference's deterministic chunk [B, H, A] from x0 [B, H, A] (each step clamped to [−c, c] with
 * `denoisedClamp` c > 0, as the trained policy's). Call it outside any gradient tape: it is a constant
 * of the loss, so recording its K velocity passes would only cost time.
 */
export function referenceActions(reference: FlowPolicy, obs: PolicyObs, x0: tf.Tensor, steps: number, denoisedClamp = 0): tf.Tensor3D {
  return tf.tidy(() => odeActions(reference, obs, x0, steps, denoisedClamp));
}
