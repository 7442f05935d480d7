/**
 * What an exported image policy's `images` input holds, in words a user can feed it by (DESIGN.md §19): its
 * shape and type, the cameras in order, the pixel layout, the channels and, for rgbd, the depth byte's encoding
 * (envs/camera/ray-cast-image-source.ts, whose constants it quotes).
 */
import { IMAGE_DEPTH_FAR, IMAGE_DEPTH_NEAR } from '../../envs/camera/ray-cast-image-source';
import type { ImageLayout } from '../../envs/task-types';

/** `uint8 [batch, cameras, size, size, channels]` with the layout's numbers. */
export function imagesShapeText(image: ImageLayout): string {
  return `uint8 [batch, ${image.cameras.length}, ${image.size}, ${image.size}, ${image.channels}]`;
}

/** The metadata_props `image_layout` line. */
export function imageLayoutText(image: ImageLayout): string {
  const colour = 'red, green, blue 0..255 (shaded colour)';
  const depth = `, then a depth byte: 0 where the ray hits nothing, else 1 + round(254 · (z − ${IMAGE_DEPTH_NEAR}) / (${IMAGE_DEPTH_FAR} − ${IMAGE_DEPTH_NEAR})) `
    + `for the z-depth z in metres, clamped to 1..255 (1 near, 255 far)`;
  return `images ${imagesShapeText(image)}: the cameras ${image.cameras.join(', ')} in this order, each ${image.size}×${image.size} pixels `
    + `row-major from the top-left, channels last: ${colour}${image.channels === 4 ? depth : ''}; the raw bytes as rendered, `
    + 'not normalized (the graph scales them to [-0.5, 0.5] itself)';
}
