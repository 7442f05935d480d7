import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import { ConfigError } from '../errors';
import type { LogProbSlice } from '../flow/logprob-reduce';
import type { SamplerOptions } from '../flow/sampling-options';
import type { MetricRecord } from '../metrics/metric-keys';
import type { FlowPolicy } from '../policy/flow-policy';
import { isCriticParameter } from '../policy/param-shapes';
import type { Rng } from '../random';
import type { NamedAdam } from './adam';
import { clipGradients } from './grad-clip';
import { shuffledMinibatches, type Minibatch } from './minibatches';
import { PhaseTimes } from './phase-times';
import { encoderFrozen } from './policy-setup';
import { readMetrics } from './ppo-loss-result';
import { bcTarget, ppoMinibatchLoss, ppoMinibatchLossOptions, ppoRowTable, type PpoMinibatch, type PpoMinibatchLossOptions, type PpoMinibatchMetric } from './ppo-minibatch-loss';
import { PpoUpdateTally } from './ppo-update-tally';
import type { RolloutBuffer } from './rollout-buffer';

export interface PpoUpdateInputs {
  policy: FlowPolicy;
  buffer: RolloutBuffer;
  /** [T, N] */
  advantages: Float32Array;
  /** [T, N] value targets */
  returns: Float32Array;
  /** [T, N] loss mask (computeAdvantages'; GRPO narrows the rollout's); the rollout's when absent. */
  mask?: Float32Array;
  sampler: SamplerOptions;
  slice: LogProbSlice;
  config: RunConfig;
  actorOptimizer: NamedAdam;
  criticOptimizer: NamedAdam;
  actorLr: number;
  criticLr: number;
  /** Only the critic trains (DESIGN.md §4 "critic_warmup_steps"). */
  criticOnly: boolean;
  rng: Rng;
  /** Consecutive skipped updates, carried across iterations; at `ppo.max_nonfinite_skips` the update throws. */
  skipStreak: { current: number };
  /** Awaited before each minibatch: a pause point, so a pause need not wait for the whole update. */
  beforeMinibatch?: () => Promise<void>;
  /** Charged with the forward, backward, optimizer and data-move time (a throwaway one when absent). */
  phases?: PhaseTimes;
  /** The BC regularizer's frozen reference policy and the stream its x_0 come from; needed when ppo.bc_coef > 0. */
  bc?: { reference: FlowPolicy; rng: Rng };
}

export interface PpoUpdateResult {
  metrics: MetricRecord;
  /** Minibatch updates skipped because a loss or gradient was not finite. */
  nonfiniteSkips: number;
  /** Minibatch updates applied. */
  applied: number;
}

/** Parameters that get gradients this update: the value head only while warming up; no noise head unless method noise. */
export function trainableVariables(policy: FlowPolicy, criticOnly: boolean, method: SamplerOptions['method'], frozenEncoder: boolean): Map<string, tf.Variable> {
  const selected = new Map<string, tf.Variable>();
  for (const [name, variable] of policy.namedVariables()) {
    if (criticOnly && !isCriticParameter(name)) continue;
    if (frozenEncoder && name.startsWith('encoder.')) continue;
    if (method !== 'noise' && name.startsWith('noise_head.')) continue;
    selected.set(name, variable);
  }
  return selected;
}

/** What every minibatch step of one update shares. */
interface UpdateContext {
  inputs: PpoUpdateInputs;
  phases: PhaseTimes;
  variables: Map<string, tf.Variable>;
  /** tf variable name → parameter name */
  paramNameOf: Map<string, string>;
  maxGradNorm: number;
  lossOptions: PpoMinibatchLossOptions;
  /** The BC regularizer's reference and x_0 stream, while the regularizer is on. */
  bc?: { reference: FlowPolicy; rng: Rng };
  tally: PpoUpdateTally;
}

/**
 * One minibatch: the loss and its gradients, actor and critic clipped apart, then both optimizer
 * steps, or a skip (weights untouched) when the loss, a metric or a gradient is not finite.
 * Returns whether the step was applied.
 */
async function trainOnMinibatch(context: UpdateContext, minibatch: Minibatch<keyof PpoMinibatch>): Promise<boolean> {
  const { inputs, phases, variables, lossOptions, bc, tally } = context;
  const batch = phases.timeSync('data', () => minibatch.tensors());
  const target = bc && phases.timeSync('forward', () => bcTarget(bc.reference, bc.rng, batch.state, lossOptions));
  let metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> = {};
  // The forward runs inside variableGrads; its own time is measured there, the rest is backward.
  let forwardSeconds = 0;
  const gradsStarted = phases.clock();
  const { value: loss, grads } = tf.variableGrads(() => {
    const forwardStarted = phases.clock();
    const result = ppoMinibatchLoss(inputs.policy, batch, target, lossOptions);
    metrics = result.metrics;
    for (const scalar of Object.values(metrics)) tf.keep(scalar);
    forwardSeconds = (phases.clock() - forwardStarted) / 1000;
    return result.loss;
  }, [...variables.values()]);
  phases.add('forward', forwardSeconds);
  phases.add('backward', (phases.clock() - gradsStarted) / 1000 - forwardSeconds);
  // Actor and critic are clipped apart: one global norm would let the critic's large value
  // gradients shrink the policy gradient to nothing (they also have their own optimizers).
  const groups = { actor: {} as tf.NamedTensorMap, critic: {} as tf.NamedTensorMap };
  for (const [tfName, grad] of Object.entries(grads)) {
    const name = context.paramNameOf.get(tfName);
    if (name) (isCriticParameter(name) ? groups.critic : groups.actor)[name] = grad;
  }
  const [actorClip, criticClip] = await phases.time('optimizer', async () =>
    [await clipGradients(groups.actor, context.maxGradNorm), await clipGradients(groups.critic, context.maxGradNorm)] as const);
  try {
    const [lossValue, metricValues] = await phases.time('data', async () => [(await loss.data())[0], await readMetrics(metrics)] as const);
    if (!actorClip.finite || !criticClip.finite || !PpoUpdateTally.allFinite([lossValue, ...Object.values(metricValues)])) {
      tally.skipped();
      return false;
    }
    phases.timeSync('optimizer', () => {
      inputs.actorOptimizer.apply(variables, new Map(Object.entries(actorClip.grads)), inputs.actorLr);
      inputs.criticOptimizer.apply(variables, new Map(Object.entries(criticClip.grads)), inputs.criticLr);
    });
    tally.appliedWith(metricValues, inputs.criticOnly ? criticClip.gradNorm : actorClip.gradNorm);
    return true;
  } finally {
    tf.dispose([loss, ...Object.values(grads), ...Object.values(actorClip.grads), ...Object.values(criticClip.grads), ...Object.values(metrics), ...Object.values(batch), ...(target ? [target.x0, target.actions] : [])]);
  }
}

/**
 * PPO epochs × shuffled minibatches over the valid (time × env) entries (DESIGN.md §4); a mask
 * with no valid entry runs no minibatch and changes nothing. A non-finite loss or gradient skips
 * that minibatch and leaves the weights as they were. `target_kl` stops the loop after the
 * minibatch whose mean approx_kl so far exceeds it. With ppo.bc_coef > 0 the actor loss adds
 * bc_coef × the BC regularizer (bcRegularizerLoss): both policies' ODE chunks from one x_0 drawn
 * per minibatch, the reference's computed outside the gradient tape.
 */
export async function ppoUpdate(inputs: PpoUpdateInputs): Promise<PpoUpdateResult> {
  const { policy, buffer, config, sampler, slice, criticOnly } = inputs;
  const bcCoef = config.ppo.bc_coef;
  if (bcCoef > 0 && !inputs.bc) {
    throw new ConfigError('ppo.bc_coef', `ppo.bc_coef (${bcCoef}) needs the frozen reference policy of the run; pass it to the update or set ppo.bc_coef=0`);
  }
  // With a frozen encoder the buffer holds its features (collectRollout), not observations.
  const frozen = encoderFrozen(config);
  const variables = trainableVariables(policy, criticOnly, sampler.method, frozen);
  const tally = new PpoUpdateTally(inputs.skipStreak, config.ppo.max_nonfinite_skips);
  const context: UpdateContext = {
    inputs, variables, tally,
    phases: inputs.phases ?? new PhaseTimes(() => performance.now()),
    paramNameOf: new Map([...variables].map(([name, variable]) => [variable.name, name])),
    maxGradNorm: config.ppo.max_grad_norm > 0 ? config.ppo.max_grad_norm : Infinity,
    lossOptions: ppoMinibatchLossOptions(config, sampler, slice, criticOnly, frozen),
    bc: bcCoef > 0 && !criticOnly ? inputs.bc : undefined,
  };
  const decisions = ppoRowTable(buffer, inputs.advantages, inputs.returns, policy, slice);
  const targetKl = criticOnly ? 0 : config.ppo.target_kl;
  let epochsRun = 0;
  let stopped = false;
  for (let epoch = 0; epoch < config.ppo.epochs && !stopped; epoch++) {
    epochsRun = epoch + 1;
    for (const minibatch of shuffledMinibatches(decisions, inputs.mask ?? buffer.mask, inputs.rng, config.ppo.minibatch_size)) {
      await inputs.beforeMinibatch?.();
      const applied = await trainOnMinibatch(context, minibatch);
      stopped = applied && targetKl > 0 && tally.meanApproxKl() > targetKl;
      if (stopped) break;
    }
  }
  return { metrics: tally.metrics(epochsRun), nonfiniteSkips: tally.nonfiniteSkips, applied: tally.applied };
}
