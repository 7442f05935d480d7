/** The video worker's work: one recorded episode in, one captioned WebM (or its frames) out. */
import type { RenderEpisodeRequest, RenderedFrames, RenderedVideo, VideoCapabilities } from '../../src/protocol/video-api';
import { videoDurationSeconds } from '../../src/core/video/frame-timing';
import { ShapeError } from '../../src/core/errors';
import { createFrameCompositor } from './frame-compositor';
import { canEncodeVp9, encodeWebm } from './webcodecs-encode';

export async function videoCapabilities(width = 640, height = 360): Promise<VideoCapabilities> {
  let offscreenWebgl: boolean;
  try {
    offscreenWebgl = typeof OffscreenCanvas !== 'undefined' && new OffscreenCanvas(1, 1).getContext('webgl2') !== null;
  } catch {
    offscreenWebgl = false;
  }
  const webcodecs = typeof VideoEncoder !== 'undefined';
  return { webcodecs, vp9: webcodecs && (await canEncodeVp9(width, height)), offscreenWebgl };
}

export async function renderEpisodeWebm(request: RenderEpisodeRequest): Promise<RenderedVideo> {
  const started = performance.now();
  if (!(await canEncodeVp9(request.width, request.height))) {
    throw new ShapeError('encoder', 'this browser has no WebCodecs VP9 encoder; use renderFrames and the MediaRecorder fallback');
  }
  const compositor = createFrameCompositor(request.visual, request.poses, request.summary, request.width, request.height);
  try {
    const fps = request.visual.fps;
    const encoded = await encodeWebm(compositor, fps);
    return {
      ...encoded,
      frames: compositor.frames,
      fps,
      durationSeconds: videoDurationSeconds(compositor.frames, fps),
      encoder: 'webcodecs',
      renderSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    compositor.dispose();
  }
}

export async function renderEpisodeFrames(request: RenderEpisodeRequest): Promise<RenderedFrames> {
  const compositor = createFrameCompositor(request.visual, request.poses, request.summary, request.width, request.height);
  try {
    const frames: ImageBitmap[] = [];
    for (let frameIndex = 0; frameIndex < compositor.frames; frameIndex++) {
      compositor.draw(frameIndex);
      frames.push(await createImageBitmap(compositor.canvas));
    }
    return { frames, fps: request.visual.fps };
  } finally {
    compositor.dispose();
  }
}
