/**
 * Camera images as canvas pixels (DESIGN.md §19): a depth image colour-mapped from its nearest to
 * its farthest hit (near bright yellow, far dark violet, as viridis runs), misses in one flat grey,
 * and the tick values of its legend in metres. Colours follow inverse depth, as depth viewers
 * usually do, so a table top a metre away keeps its detail beside a floor several metres off.
 */
import { ShapeError } from '../errors';

/** [stops, 3] viridis at 0, 0.25, 0.5, 0.75 and 1 (dark violet to yellow). */
const STOPS: readonly (readonly [number, number, number])[] = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
/** Pixels whose ray hit nothing: no depth to colour. */
export const MISS_RGB: readonly [number, number, number] = [40, 40, 46];

export interface DepthRange {
  /** Nearest hit (m). */
  near: number;
  /** Farthest hit (m). */
  far: number;
}

/** Nearest and farthest hit of a depth image whose misses are 0; undefined when every ray missed. */
export function depthRange(depth: Float32Array): DepthRange | undefined {
  let near = Infinity;
  let far = -Infinity;
  for (const value of depth) {
    if (!(value > 0)) continue;
    if (value < near) near = value;
    if (value > far) far = value;
  }
  return near <= far ? { near, far } : undefined;
}

/** Where a depth falls on the ramp: 1 at the nearest hit, 0 at the farthest, linear in 1 / depth; clamped to [0, 1]. */
export function depthBrightness(depth: number, range: DepthRange): number {
  const span = 1 / range.near - 1 / range.far;
  return span > 0 ? Math.min(1, Math.max(0, (1 / depth - 1 / range.far) / span)) : 1;
}

/** Colour of a depth in [near, far]: near is the ramp's bright end. Depths outside clamp to its ends. */
export function depthColour(depth: number, range: DepthRange): [number, number, number] {
  const position = depthBrightness(depth, range) * (STOPS.length - 1);
  const lower = Math.min(STOPS.length - 2, Math.floor(position));
  const fraction = position - lower;
  const [a, b] = [STOPS[lower], STOPS[lower + 1]];
  return [0, 1, 2].map((channel) => Math.round(a[channel] + fraction * (b[channel] - a[channel]))) as [number, number, number];
}

/** depth: [pixels] z-depth, 0 on a miss → [pixels · 4] RGBA for an ImageData. */
export function depthImageRgba(depth: Float32Array, range: DepthRange | undefined): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(depth.length * 4);
  for (let pixel = 0; pixel < depth.length; pixel++) {
    const colour = range && depth[pixel] > 0 ? depthColour(depth[pixel], range) : MISS_RGB;
    rgba.set(colour, pixel * 4);
    rgba[pixel * 4 + 3] = 255;
  }
  return rgba;
}

/** rgb: [pixels · 3] → [pixels · 4] opaque RGBA for an ImageData. */
export function rgbImageRgba(rgb: Uint8Array): Uint8ClampedArray {
  if (rgb.length % 3 !== 0) throw new ShapeError('rgb', `an RGB image holds 3 bytes per pixel, but this one has ${rgb.length} bytes`);
  const pixels = rgb.length / 3;
  const rgba = new Uint8ClampedArray(pixels * 4);
  for (let pixel = 0; pixel < pixels; pixel++) {
    rgba[pixel * 4] = rgb[pixel * 3];
    rgba[pixel * 4 + 1] = rgb[pixel * 3 + 1];
    rgba[pixel * 4 + 2] = rgb[pixel * 3 + 2];
    rgba[pixel * 4 + 3] = 255;
  }
  return rgba;
}

/** Steps a legend may use, in metres: 1, 2 and 5 per decade from 1 mm to 10 m. */
const TICK_STEPS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10];

/** Round depths (m) inside [near, far] for the legend: the smallest step that gives at most `maxTicks`; [near] when the range is one depth. */
export function depthLegendTicks(range: DepthRange, maxTicks = 5): number[] {
  const span = range.far - range.near;
  if (!(span > 0)) return [range.near];
  const step = TICK_STEPS.find((candidate) => Math.floor(range.far / candidate) - Math.ceil(range.near / candidate) + 1 <= maxTicks) ?? TICK_STEPS[TICK_STEPS.length - 1];
  const ticks: number[] = [];
  for (let index = Math.ceil(range.near / step); index * step <= range.far + 1e-12; index++) ticks.push(Number((index * step).toFixed(3)));
  return ticks;
}

/**
 * The legend ticks (near to far) whose places on the bar, which runs in inverse depth, lie at least `minGap` of its
 * width after the last tick kept: far ticks crowd together on that scale, and their labels would run into each other.
 */
export function spacedDepthTicks(ticks: readonly number[], range: DepthRange, minGap = 0.1): number[] {
  const kept: number[] = [];
  let lastPlace = -Infinity;
  for (const tick of ticks) {
    const place = 1 - depthBrightness(tick, range);
    if (place - lastPlace < minGap) continue;
    kept.push(tick);
    lastPlace = place;
  }
  return kept;
}
