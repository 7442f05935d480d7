/**
 * The Gaussian PPO update's objective (DESIGN.md §14 "Gaussian PPO") for the one update loop
 * (rl/ppo-epochs): CleanRL's minibatch loss, and one global gradient-norm clip over actor and
 * critic together (CleanRL clips all parameters as one) before each optimizer's step.
 */
import type { RunConfig } from '../config/run-config';
import type { MinibatchObjective } from '../rl/ppo-epochs';
import { RowTable } from '../rl/row-table';
import { isGaussianCriticParameter } from './gaussian-options';
import { gaussianLossOptions, gaussianMinibatchLoss, type GaussianMinibatch } from './gaussian-loss';
import type { GaussianPolicy } from './gaussian-policy';
import type { GaussianRolloutBuffer } from './gaussian-rollout';

export function gaussianObjective(policy: GaussianPolicy, buffer: GaussianRolloutBuffer, advantages: Float32Array, returns: Float32Array, config: RunConfig, criticOnly: boolean): MinibatchObjective {
  const { obsDim, actionDim } = policy.options;
  const table = new RowTable<keyof GaussianMinibatch>(buffer.entries, {
    obs: { values: buffer.obs, rowShape: [obsDim] },
    actions: { values: buffer.actions, rowShape: [actionDim] },
    oldLogProbs: { values: buffer.logProbs, rowShape: [] },
    advantages: { values: advantages, rowShape: [] },
    returns: { values: returns, rowShape: [] },
    oldValues: { values: buffer.values, rowShape: [] },
  });
  const options = gaussianLossOptions(config, criticOnly);
  return {
    table: table as RowTable<string>,
    mask: buffer.mask,
    variables: (onlyCritic) => new Map([...policy.namedVariables()].filter(([name]) => !onlyCritic || isGaussianCriticParameter(name))),
    isCritic: isGaussianCriticParameter,
    clip: 'joint',
    loss: (batch) => gaussianMinibatchLoss(policy, batch as unknown as GaussianMinibatch, options),
  };
}
