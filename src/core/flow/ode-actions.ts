import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import { clampMean, stepMean } from './denoise-chain';
import { stepCoefficients, timeGrid } from './time-grid';

/**
 * The deterministic action chunk x_K [B, H, A] (normalized units) from x0 [B, H, A]: K plain
 * Euler (ODE) steps, each clamped to [−c, c] with `denoisedClamp` c > 0, the eval chain of DESIGN.md §3
 * without its log-prob, noise or value work. Differentiable in the policy's weights; call inside
 * tf.tidy or tf.variableGrads.
 */
export function odeActions(policy: FlowPolicy, obs: PolicyObs, x0: tf.Tensor, steps: number, denoisedClamp = 0): tf.Tensor3D {
  const batch = policy.batchSize(obs);
  const { horizon, actionDim } = policy.options;
  if (x0.rank !== 3 || x0.shape[0] !== batch || x0.shape[1] !== horizon || x0.shape[2] !== actionDim) {
    throw new ShapeError('x0', `x0 must be [B, H, A] = [${batch}, ${horizon}, ${actionDim}], got [${x0.shape.join(', ')}]`);
  }
  const grid = timeGrid(steps, policy.options.timeGrid);
  const { w0, w1 } = stepCoefficients('ode', steps, 0);
  return tf.tidy(() => {
    const features = policy.encode(obs);
    const stepSize = tf.fill([batch], grid.delta) as tf.Tensor1D;
    let x = x0;
    for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
      const t = grid.times[stepIndex];
      const { velocity } = policy.velocity(x, tf.fill([batch], grid.netTimes[stepIndex]) as tf.Tensor1D, stepSize, features);
      x = clampMean(stepMean(x, tf.reshape(velocity, [batch, horizon, actionDim]), t, w0[stepIndex], w1[stepIndex]), denoisedClamp);
    }
    return x as tf.Tensor3D;
  });
}
