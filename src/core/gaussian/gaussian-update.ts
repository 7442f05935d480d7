/**
 * The Gaussian PPO update (DESIGN.md §14 "Gaussian PPO"): ppo.epochs passes of shuffled
 * minibatches; one global gradient-norm clip over actor and critic together (CleanRL clips all
 * parameters as one), then each optimizer's step at its learning rate. A non-finite loss or
 * gradient skips the minibatch; target_kl stops the loop as for the flow policy.
 */
import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import type { MetricRecord } from '../metrics/metric-keys';
import type { Rng } from '../random';
import type { NamedAdam } from '../rl/adam';
import { clipGradients } from '../rl/grad-clip';
import { shuffledMinibatches } from '../rl/minibatches';
import type { PhaseTimes } from '../rl/phase-times';
import { readMetrics } from '../rl/ppo-loss-result';
import type { PpoMinibatchMetric } from '../rl/ppo-minibatch-loss';
import { PpoUpdateTally } from '../rl/ppo-update-tally';
import { RowTable } from '../rl/row-table';
import { isGaussianCriticParameter } from './gaussian-options';
import { gaussianLossOptions, gaussianMinibatchLoss, type GaussianMinibatch } from './gaussian-loss';
import type { GaussianPolicy } from './gaussian-policy';
import type { GaussianRolloutBuffer } from './gaussian-rollout';

export interface GaussianUpdateInputs {
  policy: GaussianPolicy;
  buffer: GaussianRolloutBuffer;
  advantages: Float32Array;
  returns: Float32Array;
  config: RunConfig;
  actorOptimizer: NamedAdam;
  criticOptimizer: NamedAdam;
  actorLr: number;
  criticLr: number;
  criticOnly: boolean;
  rng: Rng;
  skipStreak: { current: number };
  beforeMinibatch?: () => Promise<void>;
  phases: PhaseTimes;
}

export async function gaussianUpdate(inputs: GaussianUpdateInputs): Promise<MetricRecord> {
  const { policy, buffer, config, phases } = inputs;
  const { obsDim, actionDim } = policy.options;
  const table = new RowTable<keyof GaussianMinibatch>(buffer.entries, {
    obs: { values: buffer.obs, rowShape: [obsDim] },
    actions: { values: buffer.actions, rowShape: [actionDim] },
    oldLogProbs: { values: buffer.logProbs, rowShape: [] },
    advantages: { values: inputs.advantages, rowShape: [] },
    returns: { values: inputs.returns, rowShape: [] },
    oldValues: { values: buffer.values, rowShape: [] },
  });
  const variables = new Map([...policy.namedVariables()].filter(([name]) => !inputs.criticOnly || isGaussianCriticParameter(name)));
  const nameOf = new Map([...variables].map(([name, variable]) => [variable.name, name]));
  const options = gaussianLossOptions(config, inputs.criticOnly);
  const maxNorm = config.ppo.max_grad_norm > 0 ? config.ppo.max_grad_norm : Infinity;
  const tally = new PpoUpdateTally(inputs.skipStreak, config.ppo.max_nonfinite_skips);
  const targetKl = inputs.criticOnly ? 0 : config.ppo.target_kl;
  let epochsRun = 0;
  let stopped = false;
  for (let epoch = 0; epoch < config.ppo.epochs && !stopped; epoch++) {
    epochsRun = epoch + 1;
    for (const minibatch of shuffledMinibatches(table, buffer.mask, inputs.rng, config.ppo.minibatch_size)) {
      await inputs.beforeMinibatch?.();
      const batch = phases.timeSync('data', () => minibatch.tensors());
      let metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> = {};
      const started = phases.clock();
      const { value: loss, grads } = tf.variableGrads(() => {
        const result = gaussianMinibatchLoss(policy, batch, options);
        metrics = result.metrics;
        for (const scalar of Object.values(metrics)) tf.keep(scalar);
        return result.loss;
      }, [...variables.values()]);
      phases.add('backward', (phases.clock() - started) / 1000);
      const named: tf.NamedTensorMap = {};
      for (const [tfName, grad] of Object.entries(grads)) named[nameOf.get(tfName)!] = grad;
      const clip = await phases.time('optimizer', () => clipGradients(named, maxNorm));
      try {
        const lossValue = (await loss.data())[0];
        const metricValues = await readMetrics(metrics);
        if (!clip.finite || !PpoUpdateTally.allFinite([lossValue, ...Object.values(metricValues)])) {
          tally.skipped();
          continue;
        }
        phases.timeSync('optimizer', () => {
          const actor = new Map<string, tf.Tensor>();
          const critic = new Map<string, tf.Tensor>();
          for (const [name, grad] of Object.entries(clip.grads)) (isGaussianCriticParameter(name) ? critic : actor).set(name, grad);
          inputs.actorOptimizer.apply(variables, actor, inputs.actorLr);
          inputs.criticOptimizer.apply(variables, critic, inputs.criticLr);
        });
        tally.appliedWith(metricValues, clip.gradNorm);
        stopped = targetKl > 0 && tally.meanApproxKl() > targetKl;
        if (stopped) break;
      } finally {
        tf.dispose([loss, ...Object.values(grads), ...Object.values(clip.grads), ...Object.values(batch)]);
      }
    }
  }
  return tally.metrics(epochsRun);
}
