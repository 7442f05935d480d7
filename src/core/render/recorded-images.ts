/**
 * An image policy's camera images of one recorded frame (DESIGN.md §19): the layout's cameras,
 * rendered by the same image source and byte layout as the env's (rgb, or rgb plus a depth byte)
 * from the frame's recorded pose. Episodes keep poses, not pixels, so the chain views render a
 * stored step's images again here. A frame after reset is the env's, bit for bit; after a step the
 * env rendered kinematics one physics substep behind the qpos it recorded (as float32), so some
 * pixels at edges differ (recorded-images.test.ts measures how many).
 */
import { createCameraImageSource } from '../envs/camera/image-source';
import { imageBytes, resolveImageLayout } from '../envs/camera/image-layout';
import type { EpisodeRecord } from '../envs/task-env';
import type { ImageLayout } from '../envs/task-types';
import type { SceneModel } from '../envs/scene-model';
import { withRecordedFrame } from './recorded-camera';

/** [cameras × size × size × channels] uint8 images of `layout` at frame `frame` of `record`; `taskName` names the scene in errors. */
export function renderRecordedImages(
  scene: SceneModel,
  record: Pick<EpisodeRecord, 'nq' | 'qpos' | 'mocapPos'>,
  frame: number,
  layout: ImageLayout,
  taskName = 'the episode\'s task',
): Uint8Array {
  const { mj, model } = scene;
  const resolved = resolveImageLayout({ cameras: layout.cameras, size: layout.size, channels: layout.channels }, mj, model, taskName);
  const source = createCameraImageSource({ mj, model, ...resolved });
  try {
    const out = new Uint8Array(imageBytes(resolved));
    withRecordedFrame(scene, record, frame, (data) => source.render(model, data, out, 0));
    return out;
  } finally {
    source.delete();
  }
}
