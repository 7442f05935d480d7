/** Which evaluations an 'episodes' event brought: the page records videos of those. */
import type { EpisodeSummary } from '../../protocol/trainer-api';

/**
 * Eval episodes in `episodes` whose id is not in `handled`, grouped by iteration in
 * ascending order. The caller adds the ids it takes to `handled`.
 */
export function freshEvaluations(episodes: readonly EpisodeSummary[], handled: ReadonlySet<string>): Map<number, EpisodeSummary[]> {
  const byIteration = new Map<number, EpisodeSummary[]>();
  for (const episode of episodes) {
    if (episode.source !== 'eval' || handled.has(episode.id)) continue;
    const group = byIteration.get(episode.iteration) ?? [];
    group.push(episode);
    byIteration.set(episode.iteration, group);
  }
  return new Map([...byIteration].sort(([first], [second]) => first - second));
}
