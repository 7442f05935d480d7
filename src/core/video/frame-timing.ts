/**
 * Frame timing of a rollout video. A recorded episode of `length` control steps has
 * `length + 1` qpos frames (after reset, then after each step); each frame shows for
 * one control period 1/fps, so the video lasts (length + 1) / fps seconds.
 */
import { ShapeError } from '../errors';

/** Video frames for an episode of `length` control steps: one per recorded qpos row. */
export function videoFrameCount(length: number): number {
  if (!Number.isInteger(length) || length < 0) throw new ShapeError('length', `episode length must be an integer ≥ 0, got ${length}`);
  return length + 1;
}

function checkFps(fps: number): void {
  if (!Number.isFinite(fps) || fps <= 0) throw new ShapeError('fps', `fps must be a finite number > 0, got ${fps}`);
}

/** Start time of frame `frameIndex` in whole microseconds (WebCodecs' unit), rounded so frames never drift. */
export function frameTimestampUs(frameIndex: number, fps: number): number {
  checkFps(fps);
  return Math.round((frameIndex * 1_000_000) / fps);
}

/** [frames] start times in µs, then the end time of the last frame: frames + 1 entries. */
export function frameBoundariesUs(frames: number, fps: number): Float64Array {
  checkFps(fps);
  if (!Number.isInteger(frames) || frames < 1) throw new ShapeError('frames', `a video needs an integer ≥ 1 frames, got ${frames}`);
  const boundaries = new Float64Array(frames + 1);
  for (let frameIndex = 0; frameIndex <= frames; frameIndex++) boundaries[frameIndex] = frameTimestampUs(frameIndex, fps);
  return boundaries;
}

/** Duration of frame `frameIndex` in µs: the gap to the next boundary, so durations sum exactly to the total. */
export function frameDurationUs(frameIndex: number, fps: number): number {
  return frameTimestampUs(frameIndex + 1, fps) - frameTimestampUs(frameIndex, fps);
}

/** Seconds a video of `frames` frames lasts at `fps`. */
export function videoDurationSeconds(frames: number, fps: number): number {
  checkFps(fps);
  return frames / fps;
}

/** Frames a video of `durationSeconds` holds at `fps`, to the nearest whole frame. */
export function framesInDuration(durationSeconds: number, fps: number): number {
  checkFps(fps);
  return Math.round(durationSeconds * fps);
}

/** The frame shown at time `seconds` (clamped to the video), as a player seeking there would show it. */
export function frameAtTime(seconds: number, frames: number, fps: number): number {
  checkFps(fps);
  const frameIndex = Math.floor(seconds * fps + 1e-9);
  return Math.min(frames - 1, Math.max(0, frameIndex));
}
