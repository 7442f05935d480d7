import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig } from '../../core/config';
import { schedulePoints } from './schedule-points';

describe('schedulePoints', () => {
  it('follows a linear decay of σ_max and of the level over decay_steps, then holds', () => {
    const config = applyOverrides(defaultConfig(), ['noise.decay=linear', 'noise.decay_steps=1000', 'noise.std_max=0.3', 'noise.std_min=0.1', 'noise.level=0.8', 'noise.level_min=0.2']);
    const points = schedulePoints(config, 2000, 5);
    // env steps 0, 500, 1000, 1500, 2000
    expect(points.map((point) => point.envSteps)).toEqual([0, 500, 1000, 1500, 2000]);
    // σ_max: 0.3 → 0.1 linearly over 1000 steps: 0.3, 0.2, 0.1, then held at 0.1
    const stdMax = [0.3, 0.2, 0.1, 0.1, 0.1];
    // level: 0.8 → 0.2: 0.8, 0.5, 0.2, 0.2, 0.2
    const level = [0.8, 0.5, 0.2, 0.2, 0.2];
    points.forEach((point, pointIndex) => {
      expect(point.stdMax).toBeCloseTo(stdMax[pointIndex], 12);
      expect(point.level).toBeCloseTo(level[pointIndex], 12);
      expect(point.stdMin).toBe(0.1);
    });
  });

  it('is flat for a constant schedule at random settings', () => {
    const level = Math.round(Math.random() * 100) / 100;
    const config = applyOverrides(defaultConfig(), [`noise.level=${level}`]);
    const points = schedulePoints(config, 10_000);
    expect(points).toHaveLength(120);
    expect(points.at(-1)!.envSteps).toBe(10_000);
    for (const point of points) expect(point.level).toBe(level);
  });
});
