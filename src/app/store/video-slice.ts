import { create } from 'zustand';
import type { EpisodeSummary } from '../../protocol/trainer-api';
import type { VideoEncoderKind } from '../../protocol/video-api';

/** One recorded eval video, playable from an object URL. */
export interface VideoEntry {
  /** The episode id. */
  id: string;
  summary: EpisodeSummary;
  url: string;
  fileName: string;
  caption: string;
  frames: number;
  fps: number;
  durationSeconds: number;
  encoder: VideoEncoderKind;
  codec: string;
  sizeBytes: number;
  renderSeconds: number;
}

/** Videos kept on the page; older ones are dropped and their URLs revoked. */
export const MAX_VIDEOS = 12;

interface VideoState {
  /** Newest first. */
  videos: VideoEntry[];
  /** Episodes queued or rendering. */
  pending: number;
  error?: string;
  addVideo(entry: VideoEntry): void;
  setPending(pending: number): void;
  setError(error: string | undefined): void;
}

export const useVideoStore = create<VideoState>()((set) => ({
  videos: [],
  pending: 0,
  addVideo: (entry) => set((state) => {
    const videos = [entry, ...state.videos.filter((video) => video.id !== entry.id)];
    for (const dropped of videos.slice(MAX_VIDEOS)) URL.revokeObjectURL(dropped.url);
    return { videos: videos.slice(0, MAX_VIDEOS) };
  }),
  setPending: (pending) => set({ pending }),
  setError: (error) => set({ error }),
}));
