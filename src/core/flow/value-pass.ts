import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import type { Rng } from '../random';
import { clampMean, stepMean } from './denoise-chain';
import { stepCoefficients, timeGrid, validateDenoiseSteps } from './time-grid';

/**
 * V [B] alone, without sampling a chain (DESIGN.md §3 "Value head").
 * - `value_on: obs`: the encoder and the value head only; x0 is ignored.
 * - `value_on: expert`: the deterministic chain (every step ODE) from x0 [B, H, A], for the
 *   velocity-net hidden features averaged over the K steps.
 * Same ops in the same order as `runDenoiseChain(...).values` for an eval pass from the same x0 (with the same
 * `denoisedClamp`), so the values are bit-identical on one backend. Call inside tf.tidy.
 */
export function valuePass(policy: FlowPolicy, obs: PolicyObs, steps: number, x0?: tf.Tensor, denoisedClamp = 0): tf.Tensor1D {
  if (policy.options.valueOn === 'obs') return policy.value(policy.encode(obs));
  const batch = policy.batchSize(obs);
  const { horizon, actionDim } = policy.options;
  if (!x0 || x0.rank !== 3 || x0.shape[0] !== batch || x0.shape[1] !== horizon || x0.shape[2] !== actionDim) {
    throw new ShapeError('x0', `value_on expert needs x0 [${batch}, ${horizon}, ${actionDim}], got ${x0 ? `[${x0.shape.join(', ')}]` : 'nothing'}`);
  }
  const features = policy.encode(obs);
  const grid = timeGrid(steps, policy.options.timeGrid);
  // Eval chains use ODE weights at every step, whatever the method.
  const { w0, w1 } = stepCoefficients('ode', steps, 0);
  const stepSize = tf.fill([batch], grid.delta) as tf.Tensor1D;
  let hiddenSum: tf.Tensor | undefined;
  let x = x0;
  for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
    const t = grid.times[stepIndex];
    const { velocity, hidden } = policy.velocity(x, tf.fill([batch], grid.netTimes[stepIndex]) as tf.Tensor1D, stepSize, features);
    hiddenSum = hiddenSum ? tf.add(hiddenSum, hidden) : hidden;
    // The last element is never fed back, so its mean is not needed.
    if (stepIndex + 1 < steps) x = clampMean(stepMean(x, tf.reshape(velocity, [batch, horizon, actionDim]), t, w0[stepIndex], w1[stepIndex]), denoisedClamp);
  }
  return policy.value(tf.div(hiddenSum!, steps) as tf.Tensor2D);
}

/**
 * Values [B] on the CPU for one observation batch. For `value_on: expert` x_0 [B, H, A] is drawn
 * from rng exactly as the sampler's first draw, so the values (and the stream after them) match an
 * eval-mode sample (with the same `denoisedClamp`); `value_on: obs` draws nothing.
 */
export async function policyValues(policy: FlowPolicy, obs: PolicyObs, steps: number, rng: Rng, denoisedClamp = 0): Promise<Float32Array> {
  validateDenoiseSteps(steps);
  const batch = policy.batchSize(obs);
  const { horizon, actionDim, valueOn } = policy.options;
  const x0Data = valueOn === 'expert' ? rng.fillNormal(new Float32Array(batch * horizon * actionDim)) : undefined;
  const values = tf.tidy(() => valuePass(policy, obs, steps, x0Data && tf.tensor3d(x0Data, [batch, horizon, actionDim]), denoisedClamp));
  try {
    return (await values.data()) as Float32Array;
  } finally {
    values.dispose();
  }
}
