/**
 * Draws one captioned video frame per recorded qpos row: three.js renders the
 * task scene into a WebGL OffscreenCanvas, which is copied onto a 2D OffscreenCanvas
 * with a caption bar across its top. No DOM: it runs inside the video worker.
 */
import * as THREE from 'three';
import type { EpisodePoses, SceneVisual } from '../../src/core/render/scene-visual';
import { captionText, stepLabel, type VideoEpisodeFacts } from '../../src/core/video/caption';
import { buildThreeScene, type ThreeSceneHandle } from '../../src/scene3d/three-scene';
import { ShapeError } from '../../src/core/errors';

export interface FrameCompositor {
  /** The captioned frame, ready to encode. */
  readonly canvas: OffscreenCanvas;
  readonly frames: number;
  /** Renders frame `frameIndex` (0 … frames − 1) into `canvas`. */
  draw(frameIndex: number): void;
  dispose(): void;
}

export function checkVideoSize(width: number, height: number): void {
  for (const [field, value] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(value) || value < 16 || value > 4096 || value % 2 !== 0) {
      throw new ShapeError(field, `video ${field} must be an even integer in [16, 4096], got ${value}`);
    }
  }
}

export function createFrameCompositor(visual: SceneVisual, poses: EpisodePoses, summary: VideoEpisodeFacts, width: number, height: number): FrameCompositor {
  checkVideoSize(width, height);
  if (poses.geomCount !== visual.geoms.length) {
    throw new ShapeError('poses.geomCount', `poses hold ${poses.geomCount} geoms per frame but the scene has ${visual.geoms.length}`);
  }
  if (poses.frames !== summary.length + 1) {
    throw new ShapeError('poses.frames', `an episode of ${summary.length} steps has ${summary.length + 1} qpos frames, got ${poses.frames}`);
  }
  const glCanvas = new OffscreenCanvas(width, height);
  // No MSAA: on a software GL (SwiftShader) it made each frame about 4× slower (85 → 22 ms at 640×360).
  const renderer = new THREE.WebGLRenderer({ canvas: glCanvas, antialias: false, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  const handle: ThreeSceneHandle = buildThreeScene(visual);
  handle.setAspect(width / height);
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new ShapeError('canvas', 'this browser gives no 2D context on an OffscreenCanvas');
  const caption = captionText(summary);
  const fontPx = Math.max(10, Math.round(height / 24));
  const barHeight = Math.round(fontPx * 1.8);

  return {
    canvas,
    frames: poses.frames,
    draw(frameIndex) {
      handle.setFrame(poses, frameIndex);
      if (visual.trackGeom !== undefined) {
        // The camera moves with the tracked body, keeping its offset from the target.
        const target = handle.trackedTarget(poses, frameIndex);
        handle.camera.position.set(...visual.camera.position);
        handle.camera.position.x += target[0] - visual.camera.target[0];
        handle.camera.position.y += target[1] - visual.camera.target[1];
        handle.camera.lookAt(...target);
      }
      renderer.render(handle.scene, handle.camera);
      context.drawImage(glCanvas, 0, 0);
      context.fillStyle = 'rgba(12, 16, 24, 0.72)';
      // The caption sits on top: a player's own controls cover the bottom of the frame.
      context.fillRect(0, 0, width, barHeight);
      context.font = `${fontPx}px system-ui, sans-serif`;
      context.textBaseline = 'middle';
      context.textAlign = 'left';
      context.fillStyle = summary.success ? '#8fe3a1' : '#f2a7a7';
      context.fillText(caption, Math.round(fontPx * 0.6), barHeight / 2);
      context.textAlign = 'right';
      context.fillStyle = '#d8dde6';
      context.fillText(stepLabel(frameIndex, summary.length), width - Math.round(fontPx * 0.6), barHeight / 2);
    },
    dispose() {
      handle.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
    },
  };
}
