import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import { ConfigError, TrainingError } from '../errors';
import { chainLogProb } from '../flow/chain-logprob';
import { odeActions } from '../flow/ode-actions';
import type { LogProbSlice } from '../flow/logprob-reduce';
import type { SamplerOptions } from '../flow/sampling-options';
import type { MetricRecord } from '../metrics/metric-keys';
import type { FlowPolicy } from '../policy/flow-policy';
import { isCriticParameter } from '../policy/param-shapes';
import type { Rng } from '../random';
import type { NamedAdam } from './adam';
import { drawBcNoise, referenceActions } from './bc-reference';
import { bcRegularizerLoss } from './bc-regularizer';
import { logProbUnitShape } from './collect-rollout';
import { clipGradients } from './grad-clip';
import { PhaseTimes } from './phase-times';
import { ppoActorLoss } from './ppo-loss-actor';
import { ppoCriticLoss } from './ppo-loss-critic';
import { combinePpoLosses } from './ppo-loss-total';
import { RolloutBuffer } from './rollout-buffer';
import { encoderFrozen } from './policy-setup';

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

const ACTOR_METRICS = ['losses/policy', 'losses/approx_kl', 'losses/clip_fraction', 'losses/ratio_mean', 'losses/ratio_max'] as const;
type TrackedMetric = (typeof ACTOR_METRICS)[number] | 'losses/value' | 'losses/entropy' | 'losses/grad_norm' | 'losses/bc';

/** Fisher-Yates shuffle of the valid entries (mask = 1), with the run's RNG. */
function shuffledValidEntries(mask: Float32Array, rng: Rng): Int32Array {
  const valid: number[] = [];
  for (let entry = 0; entry < mask.length; entry++) if (mask[entry] > 0) valid.push(entry);
  for (let position = valid.length - 1; position > 0; position--) {
    const other = rng.int(position + 1);
    [valid[position], valid[other]] = [valid[other], valid[position]];
  }
  return Int32Array.from(valid);
}

/** Parameters that get gradients this update: the value head only while warming up; no noise head unless method noise. */
function trainableVariables(policy: FlowPolicy, criticOnly: boolean, method: SamplerOptions['method'], frozenEncoder: boolean): Map<string, tf.Variable> {
  const selected = new Map<string, tf.Variable>();
  for (const [name, variable] of policy.namedVariables()) {
    if (criticOnly && !isCriticParameter(name)) continue;
    if (frozenEncoder && name.startsWith('encoder.')) continue;
    if (method !== 'noise' && name.startsWith('noise_head.')) continue;
    selected.set(name, variable);
  }
  return selected;
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
  const { policy, buffer, config, sampler, slice } = inputs;
  const phases = inputs.phases ?? new PhaseTimes(() => performance.now());
  const { horizon, actionDim } = policy.options;
  const shape = buffer.shape;
  // With a frozen encoder the buffer holds its features (collectRollout), not observations.
  const frozen = encoderFrozen(config);
  const variables = trainableVariables(policy, inputs.criticOnly, sampler.method, frozen);
  const paramNameOf = new Map([...variables].map(([name, variable]) => [variable.name, name]));
  const maxGradNorm = config.ppo.max_grad_norm > 0 ? config.ppo.max_grad_norm : Infinity;
  const bcCoef = config.ppo.bc_coef;
  const bc = bcCoef > 0 && !inputs.criticOnly ? inputs.bc : undefined;
  if (bcCoef > 0 && !inputs.bc) {
    throw new ConfigError('ppo.bc_coef', `ppo.bc_coef (${bcCoef}) needs the frozen reference policy of the run; pass it to the update or set ppo.bc_coef=0`);
  }
  const sums = new Map<TrackedMetric, number>();
  let ratioMax = 0;
  let applied = 0;
  let nonfiniteSkips = 0;
  let klSum = 0;
  let klCount = 0;
  let epochsRun = 0;
  let stopped = false;
  for (let epoch = 0; epoch < config.ppo.epochs && !stopped; epoch++) {
    epochsRun = epoch + 1;
    const order = shuffledValidEntries(inputs.mask ?? buffer.mask, inputs.rng);
    for (let first = 0; first < order.length && !stopped; first += config.ppo.minibatch_size) {
      await inputs.beforeMinibatch?.();
      const rows = order.subarray(first, Math.min(first + config.ppo.minibatch_size, order.length));
      const m = rows.length;
      const batch = phases.timeSync('data', () => tf.tidy(() => ({
        state: tf.tensor2d(RolloutBuffer.gather(buffer.obs, shape.obsSize, rows), [m, shape.obsSize]),
        chains: tf.tensor4d(RolloutBuffer.gather(buffer.chains, shape.chainSize, rows), [m, shape.denoiseSteps + 1, horizon, actionDim]),
        denoise: tf.tensor2d(RolloutBuffer.gather(buffer.denoiseInds, shape.denoiseSteps, rows), [m, shape.denoiseSteps]),
        oldLogProbs: tf.tensor(RolloutBuffer.gather(buffer.oldLogProbs, shape.logProbUnits, rows), [m, ...logProbUnitShape(slice)]),
        advantages: tf.tensor1d(RolloutBuffer.gather(inputs.advantages, 1, rows)),
        returns: tf.tensor1d(RolloutBuffer.gather(inputs.returns, 1, rows)),
        oldValues: tf.tensor1d(RolloutBuffer.gather(buffer.values, 1, rows)),
      })));
      // The reference's chunk is a constant of the loss, so it is computed before the tape records.
      const bcTarget = bc && phases.timeSync('forward', () => tf.tidy(() => {
        const x0 = drawBcNoise(bc.rng, m, horizon, actionDim);
        return { x0, actions: referenceActions(bc.reference, frozen ? { features: batch.state } : { state: batch.state }, x0, sampler.steps) };
      }));
      let kept: Partial<Record<TrackedMetric, tf.Scalar>> = {};
      // The forward runs inside variableGrads; its own time is measured there, the rest is backward.
      let forwardSeconds = 0;
      const gradsStarted = phases.clock();
      const { value: loss, grads } = tf.variableGrads(() => {
        const forwardStarted = phases.clock();
        // With the regularizer on, the features are encoded once for both passes.
        const obs = frozen ? { features: batch.state } : bcTarget ? { features: policy.encode({ state: batch.state }) } : { state: batch.state };
        const recomputed = chainLogProb(policy, obs, batch.chains, batch.denoise, { ...sampler, ...slice });
        const actor = ppoActorLoss(
          { logProbs: recomputed.logProb, oldLogProbs: batch.oldLogProbs, advantages: batch.advantages },
          { clipLow: config.ppo.clip_low, clipHigh: config.ppo.clip_high, dualClip: config.ppo.dual_clip > 0 ? config.ppo.dual_clip : undefined },
        );
        const critic = ppoCriticLoss(
          { values: recomputed.values, oldValues: batch.oldValues, returns: batch.returns },
          { lossType: config.ppo.value_loss, huberDelta: config.ppo.huber_delta, clipRange: config.ppo.value_clip > 0 ? config.ppo.value_clip : undefined },
        );
        const entropy = tf.mean(recomputed.entropy) as tf.Scalar;
        kept = { 'losses/value': tf.keep(critic.loss), 'losses/entropy': tf.keep(entropy) };
        for (const key of ACTOR_METRICS) kept[key] = tf.keep(actor.metrics[key]);
        const regularizer = bcTarget && bcRegularizerLoss(odeActions(policy, obs, bcTarget.x0, sampler.steps), bcTarget.actions, slice);
        if (regularizer) kept['losses/bc'] = tf.keep(regularizer.metrics['losses/bc']);
        const total = combinePpoLosses(
          inputs.criticOnly ? { value: critic.loss } : { policy: actor.loss, value: critic.loss, entropy, bc: regularizer?.loss },
          { valueCoef: config.ppo.value_coef, entropyCoef: config.ppo.entropy_coef, bcCoef },
        );
        forwardSeconds = (phases.clock() - forwardStarted) / 1000;
        return total;
      }, [...variables.values()]);
      phases.add('forward', forwardSeconds);
      phases.add('backward', (phases.clock() - gradsStarted) / 1000 - forwardSeconds);
      // Actor and critic are clipped apart: one global norm would let the critic's large value
      // gradients shrink the policy gradient to nothing (they also have their own optimizers).
      const groups = { actor: {} as tf.NamedTensorMap, critic: {} as tf.NamedTensorMap };
      for (const [tfName, grad] of Object.entries(grads)) {
        const name = paramNameOf.get(tfName);
        if (name) (isCriticParameter(name) ? groups.critic : groups.actor)[name] = grad;
      }
      const [actorClip, criticClip] = await phases.time('optimizer', async () =>
        [await clipGradients(groups.actor, maxGradNorm), await clipGradients(groups.critic, maxGradNorm)] as const);
      try {
        const [lossValue, metricValues] = await phases.time('data', async () => [
          (await loss.data())[0],
          await Promise.all(Object.entries(kept).map(async ([key, scalar]) => [key, (await scalar.data())[0]] as const)),
        ] as const);
        if (!actorClip.finite || !criticClip.finite || !Number.isFinite(lossValue) || metricValues.some(([, value]) => !Number.isFinite(value))) {
          nonfiniteSkips++;
          inputs.skipStreak.current++;
          const limit = config.ppo.max_nonfinite_skips;
          if (limit > 0 && inputs.skipStreak.current >= limit) {
            throw new TrainingError(
              `${inputs.skipStreak.current} updates in a row had a non-finite loss or gradient, so training paused with the weights from before them; lower actor_lr or critic_lr, or check the observations`,
              'nonfinite-updates',
            );
          }
          continue;
        }
        phases.timeSync('optimizer', () => {
          inputs.actorOptimizer.apply(variables, new Map(Object.entries(actorClip.grads)), inputs.actorLr);
          inputs.criticOptimizer.apply(variables, new Map(Object.entries(criticClip.grads)), inputs.criticLr);
        });
        applied++;
        inputs.skipStreak.current = 0;
        for (const [key, value] of metricValues) {
          if (key === 'losses/ratio_max') ratioMax = Math.max(ratioMax, value);
          else sums.set(key as TrackedMetric, (sums.get(key as TrackedMetric) ?? 0) + value);
        }
        const reportedNorm = inputs.criticOnly ? criticClip.gradNorm : actorClip.gradNorm;
        sums.set('losses/grad_norm', (sums.get('losses/grad_norm') ?? 0) + reportedNorm);
        const kl = metricValues.find(([key]) => key === 'losses/approx_kl')?.[1] ?? 0;
        klSum += kl;
        klCount++;
        if (!inputs.criticOnly && config.ppo.target_kl > 0 && klSum / klCount > config.ppo.target_kl) stopped = true;
      } finally {
        tf.dispose([loss, ...Object.values(grads), ...Object.values(actorClip.grads), ...Object.values(criticClip.grads), ...Object.values(kept), ...Object.values(batch), ...(bcTarget ? [bcTarget.x0, bcTarget.actions] : [])]);
      }
    }
  }
  const metrics: MetricRecord = { 'losses/nonfinite_skips': nonfiniteSkips, 'train/early_stop_epoch': epochsRun };
  if (applied > 0) {
    for (const [key, sum] of sums) metrics[key] = sum / applied;
    metrics['losses/ratio_max'] = ratioMax;
  }
  return { metrics, nonfiniteSkips, applied };
}
