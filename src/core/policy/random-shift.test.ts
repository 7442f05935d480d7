import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { randomShift } from './random-shift';

/**
 * Reference: pad one image [S, S, C] by `pad` with its edge pixels repeated into an explicit
 * (S + 2·pad)² canvas, then cut the S × S window whose top-left corner is (dy, dx) in the canvas.
 */
function padThenCrop(image: Uint8Array, size: number, channels: number, pad: number, dx: number, dy: number): Uint8Array {
  const side = size + 2 * pad;
  const canvas = new Uint8Array(side * side * channels);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const sourceY = Math.min(size - 1, Math.max(0, y - pad));
      const sourceX = Math.min(size - 1, Math.max(0, x - pad));
      for (let channel = 0; channel < channels; channel++) canvas[(y * side + x) * channels + channel] = image[(sourceY * size + sourceX) * channels + channel];
    }
  }
  const out = new Uint8Array(size * size * channels);
  for (let y = 0; y < size; y++) out.set(canvas.subarray(((y + dy) * side + dx) * channels, ((y + dy) * side + dx + size) * channels), y * size * channels);
  return out;
}

describe('random shift (DrQ) of camera images', () => {
  it('pads by edge replication and crops back at each image\'s own offset, drawing dx then dy per image', () => {
    const rng = createRng(4);
    const size = 11;
    const channels = 4;
    const pad = 4;
    const count = 6;
    const images = Uint8Array.from({ length: count * size * size * channels }, () => rng.int(256));
    const shifted = randomShift(images, { count, size, channels }, pad, createRng(99));
    // The same stream, drawn as the shift draws it: rng.int(2·pad + 1) for the column offset, then for the row, image by image.
    const offsets = createRng(99);
    const bytes = size * size * channels;
    const seen = new Set<string>();
    for (let image = 0; image < count; image++) {
      const dx = offsets.int(2 * pad + 1);
      const dy = offsets.int(2 * pad + 1);
      seen.add(`${dx},${dy}`);
      expect(shifted.subarray(image * bytes, (image + 1) * bytes)).toEqual(padThenCrop(images.subarray(image * bytes, (image + 1) * bytes), size, channels, pad, dx, dy));
    }
    // Six images draw more than one offset: each image is shifted on its own.
    expect(seen.size).toBeGreaterThan(1);
    expect(images).not.toEqual(shifted);
  });

  it('is the identity at offset (pad, pad) and with pad 0, and leaves its input as it was', () => {
    const image = Uint8Array.from({ length: 5 * 5 * 3 }, (_, index) => (index * 37) % 256);
    const before = image.slice();
    expect(padThenCrop(image, 5, 3, 2, 2, 2)).toEqual(image);
    const copy = randomShift(image, { count: 1, size: 5, channels: 3 }, 0, createRng(1));
    expect(copy).toEqual(image);
    expect(copy).not.toBe(image);
    randomShift(image, { count: 1, size: 5, channels: 3 }, 2, createRng(1));
    expect(image).toEqual(before);
  });
});
