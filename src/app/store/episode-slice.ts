import { create } from 'zustand';
import type { EpisodeSummary } from '../../protocol/trainer-api';
import { mergeEpisodes, PAGE_LIMITS, type SuccessFilter } from '../gallery/gallery-rows';

interface EpisodeState {
  /** Recorded episodes the trainer worker announced, oldest first; summaries only. */
  episodes: EpisodeSummary[];
  filter: SuccessFilter;
  /** The episode open in the replay view. */
  selectedId?: string;
  /** The replay's current frame (0: after reset), which the camera view renders. */
  replayStep: number;
  /** Merges announced episodes, and forgets those the worker dropped. */
  addEpisodes(episodes: readonly EpisodeSummary[], dropped?: readonly string[]): void;
  /** Drops every episode (a new run, reset or resume replaces the history). */
  clearEpisodes(): void;
  setFilter(filter: SuccessFilter): void;
  select(id: string | undefined): void;
  setReplayStep(step: number): void;
}

/** The gallery's episodes, mirrored from the trainer worker's 'episodes' events. */
export const useEpisodeStore = create<EpisodeState>()((set) => ({
  episodes: [],
  filter: 'all',
  replayStep: 0,
  addEpisodes: (incoming, dropped = []) => set((state) => ({ episodes: mergeEpisodes(state.episodes, incoming, PAGE_LIMITS, dropped) })),
  clearEpisodes: () => set({ episodes: [], selectedId: undefined, replayStep: 0 }),
  setFilter: (filter) => set({ filter }),
  select: (selectedId) => set({ selectedId, replayStep: 0 }),
  setReplayStep: (replayStep) => set({ replayStep }),
}));
