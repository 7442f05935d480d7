import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EpisodeSummary } from '../../protocol/trainer-api';
import { MAX_VIDEOS, useVideoStore, type VideoEntry } from './video-slice';

function entry(iteration: number): VideoEntry {
  const summary: EpisodeSummary = { id: `eval-${iteration}-0`, source: 'eval', task: 'reach', iteration, envIndex: 0, seed: 1, episodeReturn: 1, length: 10, success: true };
  return {
    id: summary.id, summary, url: `blob:video-${iteration}`, fileName: 'f.webm', caption: 'c', frames: 11, fps: 20,
    durationSeconds: 0.55, encoder: 'webcodecs', codec: 'vp09', sizeBytes: 100, renderSeconds: 1,
  };
}

describe('video slice', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps the newest MAX_VIDEOS videos first and revokes the URLs it drops', () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    for (let iteration = 1; iteration <= MAX_VIDEOS + 3; iteration++) useVideoStore.getState().addVideo(entry(iteration));
    const videos = useVideoStore.getState().videos;
    expect(videos).toHaveLength(MAX_VIDEOS);
    expect(videos[0].summary.iteration).toBe(MAX_VIDEOS + 3);
    expect(videos.at(-1)!.summary.iteration).toBe(4);
    expect(revoke.mock.calls.map(([url]) => url)).toEqual(['blob:video-1', 'blob:video-2', 'blob:video-3']);
  });

  it('replaces a video of the same episode instead of listing it twice', () => {
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const before = useVideoStore.getState().videos.length;
    useVideoStore.getState().addVideo({ ...entry(MAX_VIDEOS + 3), url: 'blob:again' });
    const videos = useVideoStore.getState().videos;
    expect(videos).toHaveLength(before);
    expect(videos[0].url).toBe('blob:again');
    expect(videos.filter((video) => video.id === `eval-${MAX_VIDEOS + 3}-0`)).toHaveLength(1);
  });
});
