/**
 * Records eval videos as training runs (DESIGN.md §1 journey 4): when an 'episodes'
 * event brings an evaluation and `shouldRecord` agrees, the first `video.episodes`
 * eval episodes are replayed by the trainer worker (poses only) and rendered by the
 * video worker one at a time. The trainer never waits for a video.
 */
import { captionText, videoFileName } from '../../core/video/caption';
import { episodesToRecord, shouldRecord } from '../../core/video/record-policy';
import type { EpisodeSummary } from '../../protocol/trainer-api';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore } from '../store/run-slice';
import { useVideoStore } from '../store/video-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { freshEvaluations } from './new-evaluations';
import { renderVideo } from './video-client';

let queue: Promise<void> = Promise.resolve();
let queued = 0;
/** Eval episodes already considered, recorded or not. */
const handled = new Set<string>();

function setPending(delta: number): void {
  queued += delta;
  useVideoStore.getState().setPending(queued);
}

/** Renders one episode and adds it to the store. */
async function recordEpisode(id: string): Promise<void> {
  const replay = await trainerClient().episodeReplay(id);
  const video = await renderVideo(replay);
  const blob = new Blob([video.bytes as Uint8Array<ArrayBuffer>], { type: video.mimeType });
  useVideoStore.getState().addVideo({
    id, summary: replay.summary, url: URL.createObjectURL(blob), fileName: videoFileName(replay.summary),
    caption: captionText(replay.summary), frames: video.frames, fps: video.fps, durationSeconds: video.durationSeconds,
    encoder: video.encoder, codec: video.codec, sizeBytes: video.bytes.byteLength, renderSeconds: video.renderSeconds,
  });
}

/** Queues the videos of one evaluation's episodes, behind any already queued. */
export function recordEvaluation(iteration: number, episodes: readonly EpisodeSummary[]): Promise<void> {
  const config = useRunStore.getState().config;
  if (!shouldRecord(config, iteration, true)) return queue;
  const picks = episodesToRecord(config, iteration, episodes);
  setPending(picks.length);
  for (const episode of picks) {
    queue = queue.then(async () => {
      try {
        await recordEpisode(episode.id);
        useVideoStore.getState().setError(undefined);
      } catch (error) {
        useVideoStore.getState().setError(`video of ${episode.id}: ${errorText(error)}`);
      } finally {
        setPending(-1);
      }
    });
  }
  return queue;
}

let started = false;

/** Follows the episodes the trainer announces (its 'episodes' events, mirrored in the episode slice); call once at start-up. */
export function startVideoRecorder(): void {
  if (started) return;
  started = true;
  useEpisodeStore.subscribe((state, previous) => {
    if (state.episodes === previous.episodes) return;
    for (const [iteration, episodes] of freshEvaluations(state.episodes, handled)) {
      for (const episode of episodes) handled.add(episode.id);
      void recordEvaluation(iteration, episodes);
    }
  });
}
