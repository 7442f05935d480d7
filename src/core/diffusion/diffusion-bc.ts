/**
 * Stage-1 BC of a diffusion policy (DESIGN.md §17; DPPO's DiffusionModel.loss): for a demo chunk x_0, a timestep
 * t ~ U{0..T−1} and ε ~ N(0, I), x_t = √ᾱ_t·x_0 + √(1 − ᾱ_t)·ε, and the net learns ε: loss = mean((ε_θ(x_t, t, obs) − ε)²).
 */
import * as tf from '@tensorflow/tfjs';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import type { Rng } from '../random';
import { ddpmSchedule } from './ddpm-schedule';
import { diffusionNetTime } from './diffusion-settings';
import { predictEpsilon } from './diffusion-step';

/** One minibatch's draws: a timestep per row and ε per element. */
export interface DiffusionBcDraw {
  /** [B] integer timesteps 0..T−1 */
  t: Int32Array;
  /** [B, H, A] */
  noise: Float32Array;
}

export function drawDiffusionBcInputs(batch: number, horizon: number, actionDim: number, steps: number, rng: Rng): DiffusionBcDraw {
  return {
    t: Int32Array.from({ length: batch }, () => rng.int(steps)),
    noise: rng.fillNormal(new Float32Array(batch * horizon * actionDim)),
  };
}

/** The ε-MSE of one minibatch; actions [B, H, A] normalized. Call inside tf.tidy or a gradient tape. */
export function epsilonMseLoss(policy: FlowPolicy, obs: PolicyObs, actions: tf.Tensor, draw: DiffusionBcDraw, steps: number): tf.Scalar {
  const schedule = ddpmSchedule(steps);
  const batch = draw.t.length;
  const column = (values: (t: number) => number) => tf.tensor3d(Float32Array.from(draw.t, values), [batch, 1, 1]);
  const noise = tf.tensor3d(draw.noise, actions.shape as [number, number, number]);
  const xt = tf.add(tf.mul(actions, column((t) => Math.sqrt(schedule.alphasCumprod[t]))), tf.mul(noise, column((t) => Math.sqrt(1 - schedule.alphasCumprod[t]))));
  const netTime = tf.tensor1d(Float32Array.from(draw.t, (t) => diffusionNetTime(policy.options, t, steps)));
  const predicted = predictEpsilon(policy, xt, netTime, policy.encode(obs));
  return tf.mean(tf.square(tf.sub(predicted, noise))) as tf.Scalar;
}

/** One Adam step on the encoder and ε net; returns the loss. */
export async function diffusionBcTrainStep(policy: FlowPolicy, optimizer: tf.Optimizer, obs: PolicyObs, actions: tf.Tensor, draw: DiffusionBcDraw, steps: number): Promise<number> {
  const trainable = policy.bcVariables().map(([, variable]) => variable);
  const { value, grads } = tf.variableGrads(() => epsilonMseLoss(policy, obs, actions, draw, steps), trainable);
  optimizer.applyGradients(grads);
  try {
    return (await value.data())[0];
  } finally {
    tf.dispose([value, ...Object.values(grads)]);
  }
}
