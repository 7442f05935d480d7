import * as tf from '@tensorflow/tfjs';
import { ConfigError, ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import { stopGradient } from '../policy/stop-gradient';
import type { Rng } from '../random';

/** Stage-1 flow-matching BC options (DESIGN.md §3 "Stage 1"). */
export interface BcLossOptions {
  /** t ~ U(0, 1) or t ~ Beta(betaA, betaB). */
  timeSampling: 'uniform' | 'beta';
  betaA: number;
  betaB: number;
  /** Fraction of each batch trained on the shortcut self-consistency target (0 = plain flow matching). */
  shortcutFraction: number;
  /** Big step sizes 2d are drawn from {1, 1/2, …, 1/2^(levels−1)}. */
  shortcutLevels: number;
}

export const DEFAULT_BC_LOSS_OPTIONS: BcLossOptions = {
  timeSampling: 'uniform', betaA: 1.5, betaB: 1, shortcutFraction: 0, shortcutLevels: 4,
};

/** Random inputs of one BC batch, drawn from the project RNG. */
export interface BcDraw {
  /** [B, H, A] */
  noise: Float32Array;
  /** [B] */
  t: Float32Array;
  /** [B]: 0 on flow-matching rows; the big step 2d on self-consistency rows. */
  stepSize: Float32Array;
}

function gammaSample(shape: number, rng: Rng): number {
  // Marsaglia–Tsang for shape ≥ 1; shape < 1 boosts with U^(1/shape).
  if (shape < 1) return gammaSample(shape + 1, rng) * Math.pow(1 - rng.uniform(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const z = rng.normal();
    const v = (1 + c * z) ** 3;
    if (v <= 0) continue;
    const u = 1 - rng.uniform();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** Throws ConfigError naming the field and the allowed values. */
export function validateBcLossOptions(options: BcLossOptions, policy?: FlowPolicy): void {
  if (options.timeSampling !== 'uniform' && options.timeSampling !== 'beta') {
    throw new ConfigError('timeSampling', `timeSampling must be one of uniform, beta, got ${String(options.timeSampling)}`);
  }
  if (!(options.betaA > 0) || !(options.betaB > 0)) {
    throw new ConfigError('betaA', `betaA and betaB must be > 0, got ${options.betaA} and ${options.betaB}`);
  }
  if (!(options.shortcutFraction >= 0 && options.shortcutFraction <= 1)) {
    throw new ConfigError('shortcutFraction', `shortcutFraction must be in [0, 1], got ${options.shortcutFraction}`);
  }
  if (options.shortcutFraction > 0 && policy && !policy.options.shortcut) {
    throw new ConfigError('shortcutFraction', 'shortcutFraction > 0 needs a policy built with shortcut: true');
  }
  if (!Number.isInteger(options.shortcutLevels) || options.shortcutLevels < 1) {
    throw new ConfigError('shortcutLevels', `shortcutLevels must be a positive integer, got ${options.shortcutLevels}`);
  }
}

/** Draws noise, t and step sizes; the first round(B·shortcutFraction) rows are self-consistency rows with t ∈ [2d, 1]. */
export function drawBcInputs(batch: number, horizon: number, actionDim: number, options: BcLossOptions, rng: Rng): BcDraw {
  validateBcLossOptions(options);
  const noise = rng.fillNormal(new Float32Array(batch * horizon * actionDim));
  const t = new Float32Array(batch);
  const stepSize = new Float32Array(batch);
  const consistencyRows = Math.round(batch * options.shortcutFraction);
  for (let rowIndex = 0; rowIndex < batch; rowIndex++) {
    if (rowIndex < consistencyRows) {
      const bigStep = Math.pow(2, -rng.int(options.shortcutLevels));
      stepSize[rowIndex] = bigStep;
      t[rowIndex] = bigStep + (1 - bigStep) * rng.uniform();
    } else if (options.timeSampling === 'beta') {
      const x = gammaSample(options.betaA, rng);
      t[rowIndex] = x / (x + gammaSample(options.betaB, rng));
    } else {
      t[rowIndex] = rng.uniform();
    }
  }
  return { noise, t, stepSize };
}

/** Loss and its parts (scalars). */
export interface BcLossResult {
  loss: tf.Scalar;
  metrics: { flow_mse: tf.Scalar; consistency_mse: tf.Scalar };
}

/**
 * x_t = t·noise + (1 − t)·action, target v = noise − action, MSE (DESIGN.md §3 "Stage 1").
 * Shortcut rows (stepSize 2d > 0) regress v(x_t, t, 2d) on the detached two-step average
 * (v(x_t, t, d) + v(x_t − d·v(x_t, t, d), t − d, d))/2. actions [B, H, A] (normalized).
 * With `rowWeights` [B] (stage 2's advantage weights) the loss is (1/B)·Σ_b w_b·mse_b, so weights
 * of mean 1 keep stage 1's scale; the flow_mse and consistency_mse metrics stay unweighted.
 */
export function bcFlowLoss(policy: FlowPolicy, obs: PolicyObs, actions: tf.Tensor, draw: BcDraw, rowWeights?: tf.Tensor): BcLossResult {
  const { horizon, actionDim } = policy.options;
  const batch = policy.batchSize(obs);
  if (actions.rank !== 3 || actions.shape[0] !== batch || actions.shape[1] !== horizon || actions.shape[2] !== actionDim) {
    throw new ShapeError('actions', `actions must be [B, H, A] = [${batch}, ${horizon}, ${actionDim}], got [${actions.shape.join(', ')}]`);
  }
  if (rowWeights && (rowWeights.rank !== 1 || rowWeights.shape[0] !== batch)) {
    throw new ShapeError('rowWeights', `rowWeights must be [B] = [${batch}], got [${rowWeights.shape.join(', ')}]`);
  }
  if (draw.noise.length !== batch * horizon * actionDim || draw.t.length !== batch || draw.stepSize.length !== batch) {
    throw new ShapeError('draw', `BC draw sizes (${draw.noise.length}, ${draw.t.length}, ${draw.stepSize.length}) do not match batch ${batch} × [${horizon}, ${actionDim}]`);
  }
  return tf.tidy(() => {
    const features = policy.encode(obs);
    const noise = tf.tensor3d(draw.noise, [batch, horizon, actionDim]);
    const t = tf.tensor1d(draw.t);
    const tColumn = tf.reshape(t, [batch, 1, 1]);
    const xt = tf.add(tf.mul(tColumn, noise), tf.mul(tf.sub(1, tColumn), actions));
    const bigStep = tf.tensor1d(draw.stepSize);
    const predicted = policy.velocity(xt, t, bigStep, features).velocity;
    const flowTarget = tf.reshape(tf.sub(noise, actions), [batch, horizon * actionDim]);
    const consistencyMask = tf.reshape(tf.cast(tf.greater(bigStep, 0), 'float32'), [batch, 1]);
    const consistencyRows = draw.stepSize.reduce((count, size) => count + (size > 0 ? 1 : 0), 0);
    let target: tf.Tensor = flowTarget;
    if (consistencyRows > 0) {
      const halfStep = tf.div(bigStep, 2) as tf.Tensor1D;
      const halfColumn = tf.reshape(halfStep, [batch, 1, 1]);
      const first = policy.velocity(xt, t, halfStep, features).velocity;
      const xMid = tf.sub(xt, tf.mul(halfColumn, tf.reshape(first, [batch, horizon, actionDim])));
      const second = policy.velocity(xMid, tf.sub(t, halfStep) as tf.Tensor1D, halfStep, features).velocity;
      const consistencyTarget = stopGradient(tf.div(tf.add(first, second), 2));
      target = tf.add(tf.mul(consistencyMask, consistencyTarget), tf.mul(tf.sub(1, consistencyMask), flowTarget));
    }
    const rowError = tf.mean(tf.square(tf.sub(predicted, target)), 1);
    const flowRows = batch - consistencyRows;
    const consistencySum = tf.sum(tf.mul(rowError, tf.reshape(consistencyMask, [batch])));
    const flowSum = tf.sub(tf.sum(rowError), consistencySum);
    return {
      loss: (rowWeights ? tf.mean(tf.mul(rowError, rowWeights)) : tf.mean(rowError)) as tf.Scalar,
      metrics: {
        flow_mse: tf.div(flowSum, Math.max(flowRows, 1)) as tf.Scalar,
        consistency_mse: tf.div(consistencySum, Math.max(consistencyRows, 1)) as tf.Scalar,
      },
    };
  });
}

/** One BC gradient step on the encoder and velocity net (rowWeights [B]: see bcFlowLoss); returns the loss and metrics as numbers. */
export async function bcTrainStep(
  policy: FlowPolicy,
  optimizer: tf.Optimizer,
  obs: PolicyObs,
  actions: tf.Tensor,
  draw: BcDraw,
  rowWeights?: tf.Tensor,
): Promise<{ loss: number; metrics: { flow_mse: number; consistency_mse: number } }> {
  const trainable = policy.bcVariables().map(([, variable]) => variable);
  let kept: tf.Scalar[] = [];
  const { value, grads } = tf.variableGrads(() => {
    const result = bcFlowLoss(policy, obs, actions, draw, rowWeights);
    kept = [tf.keep(result.metrics.flow_mse), tf.keep(result.metrics.consistency_mse)];
    return result.loss;
  }, trainable);
  optimizer.applyGradients(grads);
  try {
    const [flowMse, consistencyMse] = await Promise.all(kept.map((scalar) => scalar.data()));
    return { loss: (await value.data())[0], metrics: { flow_mse: flowMse[0], consistency_mse: consistencyMse[0] } };
  } finally {
    tf.dispose([value, ...Object.values(grads), ...kept]);
  }
}
