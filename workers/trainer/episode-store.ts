/** The episode store lives in core/studio; this path stays for the session's imports. */
export { EpisodeStore } from '../../src/core/studio/episode-store';
export type { IterationEpisodes, StoreChange, StoredEpisode } from '../../src/core/studio/episode-store';
