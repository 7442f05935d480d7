/**
 * The page's side of the video worker: one long-lived comlink proxy (DESIGN.md §7),
 * WebCodecs in the worker when it has a VP9 encoder, else the MediaRecorder fallback
 * on the page with frames the worker rendered.
 */
import * as Comlink from 'comlink';
import type { EpisodeReplay } from '../../protocol/trainer-api';
import type { RenderedVideo, VideoCapabilities, VideoWorkerApi } from '../../protocol/video-api';
import { encodeWithMediaRecorder } from './media-recorder-encode';

/** Frame size of rollout videos: 16:9, even sides for VP9's 4:2:0 chroma. */
export const VIDEO_WIDTH = 640;
export const VIDEO_HEIGHT = 360;

let client: Comlink.Remote<VideoWorkerApi> | undefined;
let capabilities: Promise<VideoCapabilities> | undefined;

export function videoClient(): Comlink.Remote<VideoWorkerApi> {
  if (!client) {
    const worker = new Worker(new URL('../../../workers/video.worker.ts', import.meta.url), { type: 'module', name: 'video' });
    client = Comlink.wrap<VideoWorkerApi>(worker);
  }
  return client;
}

/** The worker's encoders, asked once. */
export function videoCapabilities(): Promise<VideoCapabilities> {
  capabilities ??= videoClient().capabilities();
  return capabilities;
}

/** Test builds can force the fallback with ?video_encoder=mediarecorder. */
function forcedFallback(): boolean {
  return import.meta.env.MODE === 'e2e' && new URLSearchParams(window.location.search).get('video_encoder') === 'mediarecorder';
}

/** One captioned WebM of a replayed episode; the replay's pose buffers move to the worker. */
export async function renderVideo(replay: EpisodeReplay): Promise<RenderedVideo> {
  const request = { visual: replay.visual, poses: replay.poses, summary: replay.summary, width: VIDEO_WIDTH, height: VIDEO_HEIGHT };
  const transfer = [replay.poses.poses.buffer, replay.poses.tcp.buffer] as ArrayBuffer[];
  const { vp9 } = await videoCapabilities();
  if (vp9 && !forcedFallback()) return videoClient().renderEpisode(Comlink.transfer(request, transfer));
  const started = performance.now();
  const rendered = await videoClient().renderFrames(Comlink.transfer(request, transfer));
  const encoded = await encodeWithMediaRecorder(rendered.frames, rendered.fps, VIDEO_WIDTH, VIDEO_HEIGHT);
  return { ...encoded, renderSeconds: (performance.now() - started) / 1000 };
}
