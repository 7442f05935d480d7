/**
 * Times one policy on the tfjs backend in use, as a PPO iteration works it: a rollout decision
 * for num_envs envs (upload, sampling with the run's noise and log-prob slice, readback) and a PPO
 * minibatch step of ppo.minibatch_size decisions (the run's loss, backward, gradient clipping, Adam).
 * The numbers feed the rule in backend-speed.ts. Every tensor made here is disposed before it returns.
 */
import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import { sampleActions, type SampleResult } from '../flow/sampler';
import type { FlowPolicy } from '../policy/flow-policy';
import { obsFeatureDim, obsFrameSize } from '../policy/options';
import { createRng, type Rng } from '../random';
import { NamedAdam } from '../rl/adam';
import { logProbUnitShape } from '../rl/collect-rollout';
import { clipGradients } from '../rl/grad-clip';
import { encoderFrozen, logProbSliceFromConfig, samplerOptionsAt } from '../rl/policy-setup';
import { ppoMinibatchLoss, ppoMinibatchLossOptions, type PpoMinibatch } from '../rl/ppo-minibatch-loss';
import { trainableVariables } from '../rl/ppo-update';
import { workloadOf } from './backend-speed';
import { timeCalls, type TimingPlan } from './time-calls';

export interface SpeedPlan {
  decisions: TimingPlan;
  gradSteps: TimingPlan;
}

/** A second or so per backend for a small policy; a slow backend stops after one timed call of each. */
export const QUICK_SPEED_PLAN: SpeedPlan = {
  decisions: { warmup: 1, repeats: 3, budgetMs: 300 },
  gradSteps: { warmup: 1, repeats: 2, budgetMs: 300 },
};

export interface PolicySpeed {
  /** One decision for num_envs envs. */
  decisionSeconds: number;
  /** One PPO gradient step on ppo.minibatch_size decisions; 0 when `partial`. */
  gradStepSeconds: number;
  /**
   * The gradient step was not timed: an iteration's decisions alone took longer than the bound
   * given, so this backend cannot win (and a slow emulated GPU is spared its costliest calls).
   */
  partial?: boolean;
}

/** [rows, obsSize] observations in the normalized range, as the rollout uploads them. */
function randomObs(policy: FlowPolicy, rows: number, rng: Rng): Float32Array {
  const obsSize = policy.options.nObsSteps * obsFrameSize(policy.options);
  return rng.fillNormal(new Float32Array(rows * obsSize)).map((value) => 0.5 * value);
}

/** One rollout decision; with a frozen encoder the features come back too, as the rollout stores them. */
async function decide(policy: FlowPolicy, config: RunConfig, obs: Float32Array, rng: Rng): Promise<{ sample: SampleResult; stored: Float32Array }> {
  const sampler = samplerOptionsAt(config, 0, 'train');
  const slice = logProbSliceFromConfig(config, policy.options.actionDim);
  const obsSize = policy.options.nObsSteps * obsFrameSize(policy.options);
  const state = tf.tensor2d(obs, [obs.length / obsSize, obsSize]);
  try {
    if (!encoderFrozen(config)) return { sample: await sampleActions(policy, { state }, sampler, rng, slice), stored: obs };
    const features = policy.encode({ state });
    try {
      const sample = await sampleActions(policy, { features }, sampler, rng, slice);
      return { sample, stored: (await features.data()) as Float32Array };
    } finally {
      features.dispose();
    }
  } finally {
    state.dispose();
  }
}

/** A minibatch's rows as flat arrays, from one sampled decision batch (chains, masks and old log-probs are real). */
async function minibatchArrays(policy: FlowPolicy, config: RunConfig, rows: number, rng: Rng): Promise<Record<Exclude<keyof PpoMinibatch, 'images'>, { values: Float32Array; shape: number[] }>> {
  const { sample, stored } = await decide(policy, config, randomObs(policy, rows, rng), rng);
  const { horizon, actionDim } = policy.options;
  const steps = sample.steps;
  const slice = logProbSliceFromConfig(config, actionDim);
  const stateWidth = encoderFrozen(config) ? obsFeatureDim(policy.options) : stored.length / rows;
  const noise = (count: number) => rng.fillNormal(new Float32Array(count));
  return {
    state: { values: stored, shape: [rows, stateWidth] },
    chains: { values: sample.chains, shape: [rows, steps + 1, horizon, actionDim] },
    denoise: { values: sample.denoiseInds, shape: [rows, steps] },
    oldLogProbs: { values: sample.logProbs, shape: [rows, ...logProbUnitShape(slice)] },
    advantages: { values: noise(rows), shape: [rows] },
    returns: { values: noise(rows), shape: [rows] },
    oldValues: { values: sample.values, shape: [rows] },
  };
}

/**
 * One PPO minibatch step as ppoUpdate runs it: upload, loss and gradients, clipping (with its
 * readback), and an Adam step. Actor and critic share one optimizer here; the work is the same.
 */
function gradStep(policy: FlowPolicy, config: RunConfig, arrays: Awaited<ReturnType<typeof minibatchArrays>>, optimizer: NamedAdam): () => Promise<void> {
  const sampler = samplerOptionsAt(config, 0, 'train');
  const slice = logProbSliceFromConfig(config, policy.options.actionDim);
  const frozen = encoderFrozen(config);
  const lossOptions = ppoMinibatchLossOptions(config, sampler, slice, false, frozen);
  const variables = trainableVariables(policy, false, sampler.method, frozen);
  const paramNameOf = new Map([...variables].map(([name, variable]) => [variable.name, name]));
  const maxGradNorm = config.ppo.max_grad_norm > 0 ? config.ppo.max_grad_norm : Infinity;
  return async () => {
    const batch = Object.fromEntries(Object.entries(arrays).map(([name, { values, shape }]) => [name, tf.tensor(values, shape)])) as unknown as PpoMinibatch;
    const { value: loss, grads } = tf.variableGrads(() => ppoMinibatchLoss(policy, batch, undefined, lossOptions).loss, [...variables.values()]);
    const named: tf.NamedTensorMap = {};
    for (const [tfName, grad] of Object.entries(grads)) named[paramNameOf.get(tfName) ?? tfName] = grad;
    const clipped = await clipGradients(named, maxGradNorm);
    try {
      optimizer.apply(variables, new Map(Object.entries(clipped.grads)), 1e-6);
      await loss.data();
    } finally {
      tf.dispose([loss, ...Object.values(grads), ...Object.values(clipped.grads), ...Object.values(batch)]);
    }
  };
}

/**
 * Times `policy` at `config`'s sizes on the backend in use. The policy's weights change a little
 * (a few Adam steps at lr 1e-6), so pass a copy built for the measurement, never a run's policy.
 * When an iteration's decisions alone take longer than `boundSeconds` (the fastest iteration
 * timed so far), the gradient step is left untimed and the result is `partial`.
 */
export async function measurePolicySpeed(policy: FlowPolicy, config: RunConfig, plan: SpeedPlan = QUICK_SPEED_PLAN, boundSeconds = Infinity): Promise<PolicySpeed> {
  const workload = workloadOf(config);
  const rng = createRng(config.seed + 17);
  const obs = randomObs(policy, workload.decisionBatch, rng);
  const decisionSeconds = await timeCalls(async () => {
    await decide(policy, config, obs, rng);
  }, plan.decisions);
  if (workload.decisionsPerIteration * decisionSeconds > boundSeconds) return { decisionSeconds, gradStepSeconds: 0, partial: true };
  const optimizer = new NamedAdam();
  try {
    const arrays = await minibatchArrays(policy, config, workload.minibatchSize, rng);
    const gradStepSeconds = await timeCalls(gradStep(policy, config, arrays, optimizer), plan.gradSteps);
    return { decisionSeconds, gradStepSeconds };
  } finally {
    optimizer.dispose();
  }
}
