import * as tf from '@tensorflow/tfjs';
import { ConfigError } from '../errors';
import type { LogProbSlice } from '../flow/logprob-reduce';
import type { SamplerOptions } from '../flow/sampling-options';
import type { FlowPolicy } from '../policy/flow-policy';
import { isCriticParameter } from '../policy/param-shapes';
import type { Rng } from '../random';
import { encoderFrozen } from './policy-setup';
import { ppoEpochs, type MinibatchObjective, type PpoEpochsInputs, type PpoEpochsResult } from './ppo-epochs';
import { bcTarget, ppoMinibatchLoss, ppoMinibatchLossOptions, ppoRowTable, type PpoMinibatch } from './ppo-minibatch-loss';
import type { RowTable, RowValues } from './row-table';
import type { RolloutBuffer } from './rollout-buffer';
import { shiftedImageTensors } from './update-image-shift';

/** One flow update: the shared loop's inputs (ppoEpochs) with the flow rollout its objective is built from. */
export interface PpoUpdateInputs extends Omit<PpoEpochsInputs, 'objective'> {
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
  /** The BC regularizer's frozen reference policy and the stream its x_0 come from; needed when ppo.bc_coef > 0. */
  bc?: { reference: FlowPolicy; rng: Rng };
  /** The stream of the camera images' random shifts (policy.image_shift), for an image policy whose rollout kept its images. */
  shiftRng?: Rng;
}

export type PpoUpdateResult = PpoEpochsResult;

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

/** The flow policy's minibatch objective over one rollout (DESIGN.md §4): chain log-probs, values, entropy and the BC regularizer. */
export function flowObjective(inputs: Omit<PpoUpdateInputs, 'actorOptimizer' | 'criticOptimizer' | 'actorLr' | 'criticLr' | 'rng' | 'skipStreak' | 'beforeMinibatch' | 'phases'>): MinibatchObjective {
  const { policy, buffer, config, sampler, slice, criticOnly } = inputs;
  const bcCoef = config.ppo.bc_coef;
  if (bcCoef > 0 && !inputs.bc) {
    throw new ConfigError('ppo.bc_coef', `ppo.bc_coef (${bcCoef}) needs the frozen reference policy of the run; pass it to the update or set ppo.bc_coef=0`);
  }
  // With a frozen encoder the buffer holds its features (collectRollout), not observations.
  const frozen = encoderFrozen(config);
  const lossOptions = ppoMinibatchLossOptions(config, sampler, slice, criticOnly, frozen);
  const bc = bcCoef > 0 && !criticOnly ? inputs.bc : undefined;
  const table = ppoRowTable(buffer, inputs.advantages, inputs.returns, policy, slice) as RowTable<string, Record<string, RowValues>>;
  // Stored images are shifted per minibatch (DrQ); a frozen encoder's stored features have no images to shift.
  const shifted = shiftedImageTensors(table, policy.options.image, config.policy.image_shift, inputs.shiftRng);
  return {
    table,
    mask: inputs.mask ?? buffer.mask,
    variables: (onlyCritic) => trainableVariables(policy, onlyCritic, sampler.method, frozen),
    isCritic: isCriticParameter,
    clip: 'apart',
    ...(shifted ? { tensors: shifted } : {}),
    prepare: bc && ((batch) => {
      const target = bcTarget(bc.reference, bc.rng, batch.state, lossOptions, batch.images);
      return [target.x0, target.actions];
    }),
    loss: (batch, prepared) => {
      const target = prepared.length === 2 ? { x0: prepared[0] as tf.Tensor3D, actions: prepared[1] as tf.Tensor3D } : undefined;
      return ppoMinibatchLoss(policy, batch as unknown as PpoMinibatch, target, lossOptions);
    },
  };
}

/**
 * PPO epochs × shuffled minibatches over the valid (time × env) entries (ppoEpochs) with the flow
 * objective; a mask with no valid entry runs no minibatch and changes nothing.
 */
export async function ppoUpdate(inputs: PpoUpdateInputs): Promise<PpoUpdateResult> {
  return ppoEpochs({ ...inputs, objective: flowObjective(inputs) });
}
