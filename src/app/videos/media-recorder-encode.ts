/**
 * MediaRecorder fallback (DESIGN.md §7) for browsers without a WebCodecs VP9 encoder.
 * MediaRecorder needs a page canvas, so the worker's captioned frames are replayed
 * onto one; the recording is then retimed to exact frame times, which also gives it a
 * duration and Cues. Since the file is retimed, replay speed does not matter, only
 * that every frame is captured.
 */
import type { RenderedVideo } from '../../protocol/video-api';
import { videoDurationSeconds } from '../../core/video/frame-timing';
import { ShapeError } from '../../core/errors';
import { recordUntilComplete } from './complete-recording';
import { retimeWebm, type RetimedWebm } from './retime-webm';

const MIME_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

const waitUntil = (time: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, time - performance.now())));

/**
 * The canvas is captured when the page next renders: two frames drawn before a render
 * become one. So each frame waits for a rendering update (hidden pages render none),
 * then a full frame period from its own request, never catching up on a late timer.
 */
async function afterCapture(requestedAt: number, periodMs: number): Promise<void> {
  if (document.visibilityState === 'visible') await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await waitUntil(requestedAt + periodMs);
}

async function recordOnce(frames: readonly ImageBitmap[], fps: number, canvas: HTMLCanvasElement, mimeType: string): Promise<RetimedWebm> {
  const context = canvas.getContext('2d');
  if (!context) throw new ShapeError('canvas', 'this browser gives no 2D canvas context');
  const stream = canvas.captureStream(0);
  const [track] = stream.getVideoTracks() as CanvasCaptureMediaStreamTrack[];
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 2_500_000 });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => { if (event.data.size > 0) chunks.push(event.data); };
  const stopped = new Promise<void>((resolve) => { recorder.onstop = () => resolve(); });
  try {
    recorder.start();
    for (const frame of frames) {
      context.drawImage(frame, 0, 0, canvas.width, canvas.height);
      track.requestFrame();
      await afterCapture(performance.now(), 1000 / fps);
    }
    recorder.stop();
    await stopped;
  } finally {
    for (const streamTrack of stream.getTracks()) streamTrack.stop();
  }
  return retimeWebm(new Uint8Array(await new Blob(chunks, { type: mimeType }).arrayBuffer()), fps);
}

export async function encodeWithMediaRecorder(frames: ImageBitmap[], fps: number, width: number, height: number): Promise<Omit<RenderedVideo, 'renderSeconds'>> {
  try {
    if (typeof MediaRecorder === 'undefined') throw new ShapeError('encoder', 'this browser has neither a WebCodecs VP9 encoder nor MediaRecorder, so it cannot write videos');
    const mimeType = MIME_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    if (!mimeType) throw new ShapeError('encoder', `MediaRecorder supports none of ${MIME_TYPES.join(', ')}`);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const retimed = await recordUntilComplete(() => recordOnce(frames, fps, canvas, mimeType), frames.length);
    return {
      bytes: retimed.bytes,
      mimeType: 'video/webm',
      frames: retimed.frames,
      fps,
      durationSeconds: videoDurationSeconds(retimed.frames, fps),
      codec: retimed.codec,
      encoder: 'mediarecorder',
    };
  } finally {
    for (const frame of frames) frame.close();
  }
}
