/**
 * MediaRecorder may drop a frame when the page is busy, and a retimed file with a
 * frame missing would show every later step one frame early. A recording counts only
 * when it holds every frame; otherwise it is made again, a bounded number of times.
 */
import { ShapeError } from '../../core/errors';

export const RECORDING_ATTEMPTS = 3;

export async function recordUntilComplete<T extends { frames: number }>(
  record: (attempt: number) => Promise<T>,
  expectedFrames: number,
  attempts = RECORDING_ATTEMPTS,
): Promise<T> {
  const kept: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const recording = await record(attempt);
    if (recording.frames === expectedFrames) return recording;
    kept.push(recording.frames);
  }
  throw new ShapeError('frames', `MediaRecorder kept ${kept.join(', ')} of ${expectedFrames} frames in ${attempts} tries, so the video would be mistimed; the page was too busy to record it`);
}
