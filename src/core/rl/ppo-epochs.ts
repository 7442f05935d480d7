/**
 * The one PPO update loop every policy family runs (DESIGN.md §4, §16): ppo.epochs passes of
 * shuffled minibatches over the valid entries; per minibatch the family's loss and its gradients,
 * gradient-norm clipping (actor and critic apart, or as one norm as CleanRL clips), then both
 * optimizer steps. A non-finite loss, metric or gradient skips the minibatch and leaves the weights
 * as they were; `target_kl` stops the loop after the minibatch whose mean approx_kl so far exceeds it.
 */
import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import type { MetricRecord } from '../metrics/metric-keys';
import type { Rng } from '../random';
import type { NamedAdam } from './adam';
import { clipGradients } from './grad-clip';
import { shuffledMinibatches, type Minibatch } from './minibatches';
import { PhaseTimes } from './phase-times';
import { readMetrics } from './ppo-loss-result';
import type { PpoMinibatchMetric } from './ppo-minibatch-loss';
import { PpoUpdateTally } from './ppo-update-tally';
import type { RowTable, RowValues } from './row-table';

export type MinibatchTensors = Record<string, tf.Tensor>;

/** One family's minibatch objective over one rollout. */
export interface MinibatchObjective {
  /** The rollout's rows (one per time × env entry) as the loss reads them. */
  table: RowTable<string, Record<string, RowValues>>;
  /** A minibatch's tensors, when the objective makes them itself (augmented camera images); `minibatch.tensors()` otherwise. */
  tensors?(minibatch: Minibatch<string, Record<string, RowValues>>): MinibatchTensors;
  /** [T, N] the loss mask: entries the update samples. */
  mask: Float32Array;
  /** The parameters that get gradients this update, by name. */
  variables(criticOnly: boolean): Map<string, tf.Variable>;
  /** Critic parameters take the critic's optimizer and learning rate. */
  isCritic(name: string): boolean;
  /** 'apart': actor and critic gradients clipped by their own norms; 'joint': one norm over both. */
  clip: 'apart' | 'joint';
  /** Tensors one minibatch's loss needs that are computed outside the gradient tape (a BC target); disposed after it. */
  prepare?(batch: MinibatchTensors): tf.Tensor[];
  /** The loss and its metrics, inside the gradient tape; `prepared` is what prepare returned. */
  loss(batch: MinibatchTensors, prepared: tf.Tensor[]): { loss: tf.Scalar; metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> };
}

export interface PpoEpochsInputs {
  objective: MinibatchObjective;
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
  /** Awaited before each minibatch: a pause point inside an update. */
  beforeMinibatch?: () => Promise<void>;
  phases?: PhaseTimes;
}

export interface PpoEpochsResult {
  metrics: MetricRecord;
  /** Minibatch updates skipped because a loss or gradient was not finite. */
  nonfiniteSkips: number;
  applied: number;
}

interface StepContext {
  inputs: PpoEpochsInputs;
  phases: PhaseTimes;
  variables: Map<string, tf.Variable>;
  /** tf variable name → parameter name */
  paramNameOf: Map<string, string>;
  maxGradNorm: number;
  tally: PpoUpdateTally;
}

async function clipGroups(context: StepContext, grads: tf.NamedTensorMap): Promise<{ actor: tf.NamedTensorMap; critic: tf.NamedTensorMap; finite: boolean; norm: number; owned: tf.Tensor[] }> {
  const { objective, criticOnly } = context.inputs;
  const named: tf.NamedTensorMap = {};
  for (const [tfName, grad] of Object.entries(grads)) {
    const name = context.paramNameOf.get(tfName);
    if (name) named[name] = grad;
  }
  const split = (all: tf.NamedTensorMap) => {
    const groups = { actor: {} as tf.NamedTensorMap, critic: {} as tf.NamedTensorMap };
    for (const [name, grad] of Object.entries(all)) (objective.isCritic(name) ? groups.critic : groups.actor)[name] = grad;
    return groups;
  };
  if (objective.clip === 'joint') {
    const clip = await clipGradients(named, context.maxGradNorm);
    return { ...split(clip.grads), finite: clip.finite, norm: clip.gradNorm, owned: Object.values(clip.grads) };
  }
  // Apart: one global norm would let the critic's large value gradients shrink the policy gradient to nothing.
  const groups = split(named);
  const actor = await clipGradients(groups.actor, context.maxGradNorm);
  const critic = await clipGradients(groups.critic, context.maxGradNorm);
  return {
    actor: actor.grads, critic: critic.grads, finite: actor.finite && critic.finite,
    norm: criticOnly ? critic.gradNorm : actor.gradNorm, owned: [...Object.values(actor.grads), ...Object.values(critic.grads)],
  };
}

/** One minibatch: loss, gradients, clipping, both optimizer steps, or a skip. Returns whether it was applied. */
async function trainOnMinibatch(context: StepContext, batch: MinibatchTensors): Promise<boolean> {
  const { inputs, phases, variables, tally } = context;
  const { objective } = inputs;
  const prepared = objective.prepare ? phases.timeSync('forward', () => objective.prepare!(batch)) : [];
  let metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> = {};
  // The forward runs inside variableGrads; its own time is measured there, the rest is backward.
  let forwardSeconds = 0;
  const gradsStarted = phases.clock();
  const { value: loss, grads } = tf.variableGrads(() => {
    const forwardStarted = phases.clock();
    const result = objective.loss(batch, prepared);
    metrics = result.metrics;
    for (const scalar of Object.values(metrics)) tf.keep(scalar);
    forwardSeconds = (phases.clock() - forwardStarted) / 1000;
    return result.loss;
  }, [...variables.values()]);
  phases.add('forward', forwardSeconds);
  phases.add('backward', (phases.clock() - gradsStarted) / 1000 - forwardSeconds);
  const clipped = await phases.time('optimizer', () => clipGroups(context, grads));
  try {
    const [lossValue, metricValues] = await phases.time('data', async () => [(await loss.data())[0], await readMetrics(metrics)] as const);
    if (!clipped.finite || !PpoUpdateTally.allFinite([lossValue, ...Object.values(metricValues)])) {
      tally.skipped();
      return false;
    }
    phases.timeSync('optimizer', () => {
      inputs.actorOptimizer.apply(variables, new Map(Object.entries(clipped.actor)), inputs.actorLr);
      inputs.criticOptimizer.apply(variables, new Map(Object.entries(clipped.critic)), inputs.criticLr);
    });
    tally.appliedWith(metricValues, clipped.norm);
    return true;
  } finally {
    tf.dispose([loss, ...Object.values(grads), ...clipped.owned, ...Object.values(metrics), ...prepared]);
  }
}

export async function ppoEpochs(inputs: PpoEpochsInputs): Promise<PpoEpochsResult> {
  const { objective, config, criticOnly } = inputs;
  const variables = objective.variables(criticOnly);
  const tally = new PpoUpdateTally(inputs.skipStreak, config.ppo.max_nonfinite_skips);
  const context: StepContext = {
    inputs, variables, tally,
    phases: inputs.phases ?? new PhaseTimes(() => performance.now()),
    paramNameOf: new Map([...variables].map(([name, variable]) => [variable.name, name])),
    maxGradNorm: config.ppo.max_grad_norm > 0 ? config.ppo.max_grad_norm : Infinity,
  };
  const targetKl = criticOnly ? 0 : config.ppo.target_kl;
  let epochsRun = 0;
  let stopped = false;
  for (let epoch = 0; epoch < config.ppo.epochs && !stopped; epoch++) {
    epochsRun = epoch + 1;
    for (const minibatch of shuffledMinibatches(objective.table, objective.mask, inputs.rng, config.ppo.minibatch_size)) {
      await inputs.beforeMinibatch?.();
      const batch = context.phases.timeSync('data', () => (objective.tensors ? objective.tensors(minibatch) : minibatch.tensors())) as MinibatchTensors;
      let applied: boolean;
      try {
        applied = await trainOnMinibatch(context, batch);
      } finally {
        tf.dispose(Object.values(batch));
      }
      stopped = applied && targetKl > 0 && tally.meanApproxKl() > targetKl;
      if (stopped) break;
    }
  }
  return { metrics: tally.metrics(epochsRun), nonfiniteSkips: tally.nonfiniteSkips, applied: tally.applied };
}
