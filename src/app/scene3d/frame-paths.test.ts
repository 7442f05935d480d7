import { describe, expect, it } from 'vitest';
import { framePoints } from './frame-paths';

describe('framePoints', () => {
  it('looks at the centre of the bounding box from the given direction', () => {
    const paths = Float32Array.of(0.4, -0.1, 0.2, 0.6, 0.1, 0.2, 0.5, 0, 0.4);
    const { target, position } = framePoints([paths], [0, -2, 0], 40, 1);
    expect(target[0]).toBeCloseTo(0.5, 6);
    expect(target[1]).toBeCloseTo(0, 6);
    expect(target[2]).toBeCloseTo(0.3, 6);
    // Box 0.2 × 0.2 × 0.2: radius √0.03 ≈ 0.1732; distance 1.25·r / sin(20°) ≈ 0.6330, straight back along −y.
    expect(position[0]).toBeCloseTo(0.5, 6);
    expect(position[1]).toBeCloseTo(-(1.25 * Math.sqrt(0.03)) / Math.sin((20 * Math.PI) / 180), 4);
    expect(position[2]).toBeCloseTo(0.3, 6);
  });

  it('backs off further for a narrow view, keeps a floor on tiny boxes, and skips non-finite values', () => {
    const point = Float32Array.of(1, 1, 1, NaN, 5, 5);
    const square = framePoints([point], [1, 0, 0], 40, 1);
    const narrow = framePoints([point], [1, 0, 0], 40, 0.5);
    expect(square.target).toEqual([1, 1, 1]);
    // A single point frames the 0.06 m floor radius.
    expect(square.position[0] - 1).toBeCloseTo((1.25 * 0.06) / Math.sin((20 * Math.PI) / 180), 6);
    expect(narrow.position[0]).toBeGreaterThan(square.position[0]);
    expect(() => framePoints([Float32Array.of(NaN, NaN, NaN)], [1, 0, 0], 40, 1)).toThrow(RangeError);
  });
});
