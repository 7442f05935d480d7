/**
 * What every PPO iteration of DESIGN.md §4 shares, whatever the policy family (§16): the training
 * envs' reset seeds, the iteration's RNG streams, the lr schedule and the episode metrics. The
 * iteration itself is the Run's step (core/run/run.ts) over its family's rollout and objective.
 */
import type { RunConfig } from '../config/run-config';
import type { EpisodeRecord } from '../envs/task-env';
import type { MetricRecord } from '../metrics/metric-keys';
import { createRng, type Rng } from '../random';
import type { LrSchedule } from './lr-schedule';

/** Reset seeds of the training envs; GRPO groups of `group_size` envs share one (DESIGN.md §4). */
export function trainSeeds(config: RunConfig, numEnvs: number, iteration: number): number[] {
  const base = (config.seed * 7919 + iteration * 104_729) % 900_000;
  const grpo = config.advantages.type === 'grpo';
  return Array.from({ length: numEnvs }, (_, envIndex) => base + (grpo ? Math.floor(envIndex / config.advantages.group_size) : envIndex));
}

/** The iteration's RNG for one purpose: it depends only on (seed, iteration), so a resumed run draws the same. */
export function iterationRng(config: RunConfig, iteration: number, purpose: number): Rng {
  return createRng((config.seed * 1_000_003 + iteration * 97 + purpose) >>> 0);
}

/** The learning-rate schedule of a run over its env-step budget (ppo.lr_schedule, ppo.warmup_steps). */
export function lrSchedule(config: RunConfig, baseLr: number, totalEnvSteps: number): LrSchedule {
  const totalSteps = Math.max(1, totalEnvSteps, config.ppo.warmup_steps);
  return { kind: config.ppo.lr_schedule, baseLr, finalLr: 0, warmupSteps: config.ppo.warmup_steps, totalSteps };
}

/** The charts/* means of the episodes that finished in an iteration; none when none did. */
export function episodeMetrics(episodes: readonly EpisodeRecord[], hasSuccess: boolean): MetricRecord {
  if (episodes.length === 0) return {};
  const mean = (pick: (episode: EpisodeRecord) => number) => episodes.reduce((sum, episode) => sum + pick(episode), 0) / episodes.length;
  return {
    // A task without a success rule logs no success rate: a constant 0 would read as failure.
    ...(hasSuccess ? { 'charts/success_rate': mean((episode) => (episode.success ? 1 : 0)) } : {}),
    'charts/episode_return': mean((episode) => episode.episodeReturn),
    'charts/episode_length': mean((episode) => episode.length),
  };
}
