import type { RunConfig } from './run-config';

/**
 * Whether a run scales its rewards (ppo.reward_norm). `auto` keeps each family's reference setting: on for the
 * Gaussian baseline (CleanRL) and diffusion policies (DPPO), off for flow policies, whose recipes on the arm tasks
 * train on raw rewards; ReinFlow's Gym fine-tunes turn it on (`preset=locomotion-reinflow`).
 */
export function rewardNormOn(config: Pick<RunConfig, 'policy' | 'ppo'>): boolean {
  const setting = config.ppo.reward_norm;
  return setting === 'auto' ? config.policy.kind !== 'flow' : setting === 'true';
}
