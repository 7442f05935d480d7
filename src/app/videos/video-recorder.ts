/**
 * Records eval videos as training runs (DESIGN.md §1 journey 4): when an iteration
 * evaluated and `shouldRecord` agrees, the first `video.episodes` eval episodes are
 * fetched from the trainer worker and rendered by the video worker one at a time.
 * Nothing here waits inside the trainer: its worker only answers two short calls.
 */
import { captionText, videoFileName } from '../../core/video/caption';
import { episodesToRecord, shouldRecord } from '../../core/video/record-policy';
import { useRunStore } from '../store/run-slice';
import { useVideoStore } from '../store/video-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { newEvaluations } from './new-evaluations';
import { renderVideo } from './video-client';

let queue: Promise<void> = Promise.resolve();
let queued = 0;
const seen = new Set<string>();

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

/** Queues the videos of the evaluation at `iteration`, behind any already queued. */
export function recordEvaluation(iteration: number): Promise<void> {
  const config = useRunStore.getState().config;
  if (!shouldRecord(config, iteration, true)) return queue;
  setPending(1);
  queue = queue.then(async () => {
    const picks = episodesToRecord(config, iteration, await trainerClient().listEpisodes()).filter((episode) => !seen.has(episode.id));
    setPending(picks.length);
    for (const episode of picks) {
      seen.add(episode.id);
      try {
        await recordEpisode(episode.id);
        useVideoStore.getState().setError(undefined);
      } catch (error) {
        useVideoStore.getState().setError(`video of ${episode.id}: ${errorText(error)}`);
      } finally {
        setPending(-1);
      }
    }
  }).catch((error: unknown) => useVideoStore.getState().setError(errorText(error)))
    .finally(() => setPending(-1));
  return queue;
}

let started = false;

/** Watches the metrics history for evaluations; call once at start-up. */
export function startVideoRecorder(): void {
  if (started) return;
  started = true;
  useRunStore.subscribe((state, previous) => {
    if (state.records === previous.records) return;
    for (const iteration of newEvaluations(previous.records, state.records)) void recordEvaluation(iteration);
  });
}
