import { describe, expect, it } from 'vitest';
import { depthBrightness, depthColour, depthImageRgba, depthLegendTicks, depthRange, MISS_RGB, rgbImageRgba, spacedDepthTicks } from './depth-colour-map';

describe('depth colour map', () => {
  it('ranges over the hits only: misses (0) are neither near nor far', () => {
    expect(depthRange(Float32Array.from([0, 0.75, 0, 1.5, 1.25]))).toEqual({ near: 0.75, far: 1.5 });
    expect(depthRange(new Float32Array(4))).toBeUndefined();
  });

  it('maps the nearest hit to the bright end, the farthest to the dark end, linear in inverse depth', () => {
    const range = { near: 1, far: 3 };
    expect(depthColour(1, range)).toEqual([253, 231, 37]);
    expect(depthColour(3, range)).toEqual([68, 1, 84]);
    // 1.5 m: (1/1.5 − 1/3) / (1 − 1/3) = (1/3) / (2/3) = 0.5, the middle stop.
    expect(depthBrightness(1.5, range)).toBeCloseTo(0.5, 12);
    expect(depthColour(1.5, range)).toEqual([33, 145, 140]);
    // 1.2 m: (5/6 − 1/3) / (2/3) = 0.75, stop 3.
    expect(depthColour(1.2, range)).toEqual([94, 201, 98]);
    // 8/7 m: (7/8 − 1/3) / (2/3) = 13/16 = 0.8125: stop 3 + 0.25 of the way to stop 4, 94 + 0.25 · 159 = 133.75 → 134.
    expect(depthColour(8 / 7, range)).toEqual([134, 209, 83]);
    // Outside the range clamps; a one-depth range is all bright.
    expect(depthColour(9, range)).toEqual([68, 1, 84]);
    expect(depthColour(2, { near: 2, far: 2 })).toEqual([253, 231, 37]);
  });

  it('colours every pixel of a depth image, misses flat grey, all opaque', () => {
    const depth = Float32Array.from([0, 1, 3]);
    const rgba = depthImageRgba(depth, depthRange(depth));
    expect(Array.from(rgba)).toEqual([...MISS_RGB, 255, 253, 231, 37, 255, 68, 1, 84, 255]);
    expect(Array.from(depthImageRgba(new Float32Array(1), undefined))).toEqual([...MISS_RGB, 255]);
  });

  it('widens an rgb image to opaque rgba, and names a torn one', () => {
    expect(Array.from(rgbImageRgba(Uint8Array.from([1, 2, 3, 4, 5, 6])))).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
    expect(() => rgbImageRgba(new Uint8Array(4))).toThrow('an RGB image holds 3 bytes per pixel, but this one has 4 bytes');
  });

  it('picks round legend ticks: the smallest 1-2-5 step that gives at most five', () => {
    // 0.43 to 1.27 m: a 0.1 step gives 0.5 … 1.2 (8 ticks), 0.2 gives 0.6, 0.8, 1.0, 1.2.
    expect(depthLegendTicks({ near: 0.43, far: 1.27 })).toEqual([0.6, 0.8, 1, 1.2]);
    // 0.5 to 0.7 m: 0.05 gives 0.5, 0.55, 0.6, 0.65, 0.7.
    expect(depthLegendTicks({ near: 0.5, far: 0.7 })).toEqual([0.5, 0.55, 0.6, 0.65, 0.7]);
    expect(depthLegendTicks({ near: 0.8, far: 0.8 })).toEqual([0.8]);
  });

  it('drops far ticks that would sit too close on the inverse-depth bar', () => {
    // 0.83 to 3.47 m (a 24×24 front camera on pick-cube): 1/d runs from 1.205 to 0.288, so tick d sits at
    // 1 − (1/d − 0.288) / 0.917: 1 m at 0.22, 1.5 m at 0.59, 2 m at 0.77, 2.5 m at 0.88, 3 m at 0.95 (0.07 after 2.5 m).
    const range = { near: 0.83, far: 3.47 };
    expect(depthLegendTicks(range)).toEqual([1, 1.5, 2, 2.5, 3]);
    expect(spacedDepthTicks(depthLegendTicks(range), range)).toEqual([1, 1.5, 2, 2.5]);
    // Evenly spread ticks all stay.
    expect(spacedDepthTicks([0.6, 0.8, 1, 1.2], { near: 0.43, far: 1.27 })).toEqual([0.6, 0.8, 1, 1.2]);
    expect(spacedDepthTicks([0.8], { near: 0.8, far: 0.8 })).toEqual([0.8]);
  });
});
