/**
 * The video worker's surface (DESIGN.md §2, §7): recorded episodes in, WebM files out.
 * Types only; the worker in workers/video.worker.ts satisfies VideoWorkerApi.
 */
import type { EpisodePoses, SceneVisual } from '../core/render/scene-visual';
import type { VideoEpisodeFacts } from '../core/video/caption';

export type VideoEncoderKind = 'webcodecs' | 'mediarecorder';

export interface RenderEpisodeRequest {
  visual: SceneVisual;
  /** frames = episode length + 1 (one per recorded qpos row). */
  poses: EpisodePoses;
  /** Drawn into every frame as the caption. */
  summary: VideoEpisodeFacts;
  /** Even pixel sizes (VP9 wants 4:2:0 chroma). */
  width: number;
  height: number;
}

export interface RenderedVideo {
  /** The whole WebM file. */
  bytes: Uint8Array;
  mimeType: string;
  /** Video frames written: poses.frames. */
  frames: number;
  fps: number;
  durationSeconds: number;
  /** The codec string the encoder used, e.g. "vp09.00.31.08". */
  codec: string;
  encoder: VideoEncoderKind;
  /** Wall time the worker spent on this video. */
  renderSeconds: number;
}

/** What the worker's environment offers. */
export interface VideoCapabilities {
  webcodecs: boolean;
  vp9: boolean;
  offscreenWebgl: boolean;
}

/**
 * Frames rendered without encoding, for the MediaRecorder fallback on the page
 * (MediaRecorder needs a page canvas): each bitmap already carries the caption.
 */
export interface RenderedFrames {
  frames: ImageBitmap[];
  fps: number;
}

export interface VideoWorkerApi {
  capabilities(): Promise<VideoCapabilities>;
  /** Renders and encodes with WebCodecs (VP9) and mediabunny; throws when WebCodecs has no VP9 encoder. */
  renderEpisode(request: RenderEpisodeRequest): Promise<RenderedVideo>;
  /** Renders the captioned frames only (fallback path). */
  renderFrames(request: RenderEpisodeRequest): Promise<RenderedFrames>;
}
