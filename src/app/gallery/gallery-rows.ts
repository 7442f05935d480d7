/**
 * Pure helpers of the episode gallery: which summaries the page keeps, and
 * which rows it shows in which order.
 */
import type { EpisodeSummary } from '../../protocol/trainer-api';

export type SuccessFilter = 'all' | 'success' | 'failure';

/** The page keeps what the trainer worker keeps (src/core/studio/episode-store.ts defaults); byte-budget evictions arrive as dropped ids. */
export const PAGE_LIMITS: { trainEpisodes: number; evaluations: number } = { trainEpisodes: 200, evaluations: 10 };

/** Creation order of an id "<source>-<iteration>-<sequence>". */
export function episodeSequence(summary: EpisodeSummary): number {
  return Number(summary.id.slice(summary.id.lastIndexOf('-') + 1));
}

/**
 * Appends new summaries (ids already present are skipped), removes the `dropped` ids and drops
 * the oldest beyond the limits: the newest `trainEpisodes` training episodes and the eval
 * episodes of the newest `evaluations` eval iterations. Oldest first.
 */
export function mergeEpisodes(
  current: readonly EpisodeSummary[],
  incoming: readonly EpisodeSummary[],
  limits = PAGE_LIMITS,
  dropped: readonly string[] = [],
): EpisodeSummary[] {
  const known = new Set(current.map((summary) => summary.id));
  const gone = new Set(dropped);
  const merged = [...current, ...incoming.filter((summary) => !known.has(summary.id))]
    .filter((summary) => !gone.has(summary.id))
    .sort((a, b) => episodeSequence(a) - episodeSequence(b));
  const train = merged.filter((summary) => summary.source === 'train');
  const keptTrain = new Set(train.slice(Math.max(0, train.length - limits.trainEpisodes)));
  const evalIterations = [...new Set(merged.filter((summary) => summary.source === 'eval').map((summary) => summary.iteration))].sort((a, b) => a - b);
  const keptEvalIterations = new Set(evalIterations.slice(Math.max(0, evalIterations.length - limits.evaluations)));
  return merged.filter((summary) => (summary.source === 'train' ? keptTrain.has(summary) : keptEvalIterations.has(summary.iteration)));
}

/** The rows to show: newest first, filtered on success. */
export function galleryRows(episodes: readonly EpisodeSummary[], filter: SuccessFilter): EpisodeSummary[] {
  return episodes
    .filter((summary) => filter === 'all' || summary.success === (filter === 'success'))
    .sort((a, b) => episodeSequence(b) - episodeSequence(a));
}

/** "pick-cube · iteration 3 · return -41.20 · success" */
export function episodeCaption(summary: EpisodeSummary, hasSuccess = true): string {
  const result = hasSuccess ? ` · ${summary.success ? 'success' : 'failure'}` : '';
  return `${summary.task} · iteration ${summary.iteration} · return ${summary.episodeReturn.toFixed(2)}${result}`;
}
