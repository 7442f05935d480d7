import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import {
  frameAtTime, frameBoundariesUs, frameDurationUs, frameTimestampUs, framesInDuration, videoDurationSeconds, videoFrameCount,
} from './frame-timing';

describe('frame timing', () => {
  it('an episode of L steps has L + 1 frames lasting (L + 1) / fps', () => {
    expect(videoFrameCount(0)).toBe(1);
    expect(videoFrameCount(40)).toBe(41);
    // 41 frames at 20 Hz: 41 / 20 = 2.05 s.
    expect(videoDurationSeconds(41, 20)).toBeCloseTo(2.05, 12);
    expect(framesInDuration(2.05, 20)).toBe(41);
  });

  it('timestamps are whole microseconds that never drift: at 30 fps frame 1 starts at 33333 µs, frame 3 at 100000 µs', () => {
    // 1e6 / 30 = 33333.33 → 33333; 3e6 / 30 = 100000 exactly.
    expect(frameTimestampUs(1, 30)).toBe(33_333);
    expect(frameTimestampUs(3, 30)).toBe(100_000);
    // Durations alternate 33333 / 33334 / 33333 so that every third boundary is exact.
    expect([0, 1, 2].map((frameIndex) => frameDurationUs(frameIndex, 30))).toEqual([33_333, 33_334, 33_333]);
  });

  it('boundaries match a float64 reference and durations sum to the total, for random frame counts and rates', () => {
    const rng = createRng(11);
    for (let trial = 0; trial < 20; trial++) {
      const frames = 1 + Math.floor(rng.uniform() * 300);
      const fps = 5 + rng.uniform() * 55;
      const boundaries = frameBoundariesUs(frames, fps);
      expect(boundaries.length).toBe(frames + 1);
      let durationSum = 0;
      for (let frameIndex = 0; frameIndex < frames; frameIndex++) {
        const reference = Math.round(frameIndex * (1e6 / fps));
        expect(Math.abs(boundaries[frameIndex] - reference)).toBeLessThanOrEqual(1);
        expect(boundaries[frameIndex + 1]).toBeGreaterThan(boundaries[frameIndex]);
        durationSum += frameDurationUs(frameIndex, fps);
      }
      expect(durationSum).toBe(boundaries[frames]);
      expect(Math.abs(durationSum / 1e6 - videoDurationSeconds(frames, fps))).toBeLessThanOrEqual(1e-6);
      expect(framesInDuration(durationSum / 1e6, fps)).toBe(frames);
    }
  });

  it('seeking to a time shows the frame whose interval holds it, clamped to the video', () => {
    // 20 fps: frame 7 spans [0.35, 0.40) s.
    expect(frameAtTime(0.35, 41, 20)).toBe(7);
    expect(frameAtTime(0.399, 41, 20)).toBe(7);
    expect(frameAtTime(-1, 41, 20)).toBe(0);
    expect(frameAtTime(99, 41, 20)).toBe(40);
  });

  it('rejects bad lengths, frame counts and rates with the field named', () => {
    expect(() => videoFrameCount(-1)).toThrow(/length must be an integer ≥ 0, got -1/);
    expect(() => videoFrameCount(2.5)).toThrow(/length/);
    expect(() => frameBoundariesUs(0, 20)).toThrow(/integer ≥ 1 frames, got 0/);
    expect(() => frameTimestampUs(1, 0)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'fps' }));
    expect(() => videoDurationSeconds(10, Number.NaN)).toThrow(/fps must be a finite number > 0/);
  });
});
