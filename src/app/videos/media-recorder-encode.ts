/**
 * MediaRecorder fallback (DESIGN.md §7) for browsers without a WebCodecs VP9 encoder.
 * MediaRecorder needs a page canvas, so the worker's captioned frames are replayed
 * onto one at the video's own rate; the recording is then retimed to exact frame
 * times, which also gives it a duration and Cues.
 */
import type { RenderedVideo } from '../../core/video/video-api';
import { frameTimestampUs, videoDurationSeconds } from '../../core/video/frame-timing';
import { ShapeError } from '../../core/errors';
import { retimeWebm } from './retime-webm';

const MIME_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

const waitUntil = (time: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, time - performance.now())));

export async function encodeWithMediaRecorder(frames: ImageBitmap[], fps: number, width: number, height: number): Promise<Omit<RenderedVideo, 'renderSeconds'>> {
  if (typeof MediaRecorder === 'undefined') throw new ShapeError('encoder', 'this browser has neither a WebCodecs VP9 encoder nor MediaRecorder, so it cannot write videos');
  const mimeType = MIME_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
  if (!mimeType) throw new ShapeError('encoder', `MediaRecorder supports none of ${MIME_TYPES.join(', ')}`);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
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
    const start = performance.now();
    for (let frameIndex = 0; frameIndex < frames.length; frameIndex++) {
      context.drawImage(frames[frameIndex], 0, 0, width, height);
      track.requestFrame();
      await waitUntil(start + frameTimestampUs(frameIndex + 1, fps) / 1000);
    }
    recorder.stop();
    await stopped;
  } finally {
    for (const frame of frames) frame.close();
    for (const streamTrack of stream.getTracks()) streamTrack.stop();
  }
  const recorded = new Uint8Array(await new Blob(chunks, { type: mimeType }).arrayBuffer());
  const retimed = await retimeWebm(recorded, fps);
  return {
    bytes: retimed.bytes,
    mimeType: 'video/webm',
    frames: retimed.frames,
    fps,
    durationSeconds: videoDurationSeconds(retimed.frames, fps),
    codec: retimed.codec,
    encoder: 'mediarecorder',
  };
}
