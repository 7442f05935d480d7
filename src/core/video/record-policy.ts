/**
 * When rollout videos are recorded, and of which episodes: eval episodes at evaluations
 * whose iteration is a multiple of `video.every` (every evaluation when it is 0), the
 * first `video.episodes` of them in env order.
 */
import type { RunConfig } from '../config/run-config';

/** True when the iteration that just finished (1-based) should get videos; `evaluated` says whether it ran an evaluation. */
export function shouldRecord(config: Pick<RunConfig, 'video'>, iteration: number, evaluated: boolean): boolean {
  const { every, episodes } = config.video;
  if (!evaluated || episodes <= 0) return false;
  return every === 0 || iteration % every === 0;
}

/** The minimal shape of an episode the picker needs. */
export interface RecordableEpisode {
  source: 'train' | 'eval';
  iteration: number;
  envIndex: number;
}

/** The eval episodes of `iteration` to render: at most `video.episodes`, lowest env index first. */
export function episodesToRecord<E extends RecordableEpisode>(config: Pick<RunConfig, 'video'>, iteration: number, episodes: readonly E[]): E[] {
  return episodes
    .filter((episode) => episode.source === 'eval' && episode.iteration === iteration)
    .sort((first, second) => first.envIndex - second.envIndex)
    .slice(0, Math.max(0, config.video.episodes));
}
