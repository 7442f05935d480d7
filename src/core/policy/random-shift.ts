/**
 * Random-shift augmentation of camera images (DrQ; DESIGN.md §19), applied to the images of an update's
 * minibatch (BC and PPO), never in rollouts or evaluation. Each image is padded by `pad` pixels with its
 * edge pixels replicated, then cropped back to its size at an offset (dx, dy) drawn uniformly from
 * [0, 2·pad] per image: pixel (y, x) of the result is the source's (clamp(y + dy − pad), clamp(x + dx − pad)).
 */
import type { Rng } from '../random';

/** The layout of the images to shift: `count` images of size × size × channels bytes, one after another. */
export interface ShiftLayout {
  count: number;
  size: number;
  channels: number;
}

/** Shifts each image by its own offset; draws rng.int(2·pad + 1) for dx, then for dy, image by image. Returns new bytes. */
export function randomShift(images: Uint8Array, layout: ShiftLayout, pad: number, rng: Rng): Uint8Array {
  const { count, size, channels } = layout;
  if (pad === 0) return images.slice();
  const out = new Uint8Array(images.length);
  const imageBytes = size * size * channels;
  const rowBytes = size * channels;
  const sourceColumn = new Int32Array(size);
  for (let image = 0; image < count; image++) {
    const dx = rng.int(2 * pad + 1) - pad;
    const dy = rng.int(2 * pad + 1) - pad;
    for (let x = 0; x < size; x++) sourceColumn[x] = Math.min(size - 1, Math.max(0, x + dx));
    const base = image * imageBytes;
    for (let y = 0; y < size; y++) {
      const sourceRow = base + Math.min(size - 1, Math.max(0, y + dy)) * rowBytes;
      const target = base + y * rowBytes;
      for (let x = 0; x < size; x++) {
        const from = sourceRow + sourceColumn[x] * channels;
        const to = target + x * channels;
        for (let channel = 0; channel < channels; channel++) out[to + channel] = images[from + channel];
      }
    }
  }
  return out;
}
