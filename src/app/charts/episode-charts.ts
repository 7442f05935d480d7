/**
 * The Episodes charts (DESIGN.md §13): success rates for tasks with a success rule; a task without
 * one reports return and length only, so its charts rank by return instead of a success rate that
 * would read 0.
 */
import type { MetricKey } from '../../core/metrics';
import type { TaskEntry } from '../../protocol/trainer-api';

export interface EpisodeChart {
  metric: MetricKey;
  title: string;
}

/** True when any of the named tasks has a success rule; a task the list does not know (a kept run's) is taken to have one. */
export function tasksHaveSuccess(entries: readonly TaskEntry[], names: readonly string[]): boolean {
  return names.some((name) => entries.find((entry) => entry.name === name)?.hasSuccess ?? true);
}

export function episodeCharts(hasSuccess: boolean): EpisodeChart[] {
  return hasSuccess
    ? [
      { metric: 'charts/success_rate', title: 'success rate' },
      { metric: 'eval/success_rate', title: 'eval success' },
      { metric: 'charts/episode_return', title: 'episode return' },
      { metric: 'charts/episode_length', title: 'episode length' },
    ]
    : [
      { metric: 'charts/episode_return', title: 'episode return' },
      { metric: 'eval/episode_return', title: 'eval return' },
      { metric: 'charts/episode_length', title: 'episode length' },
    ];
}
