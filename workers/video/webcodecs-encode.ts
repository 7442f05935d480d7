/**
 * WebCodecs path (DESIGN.md §7): every compositor frame is encoded to VP9 by
 * mediabunny's CanvasSource and muxed to WebM in memory. The muxer writes the
 * Segment duration and Cues at finalize, so the file plays with a length and seeks.
 */
import { BufferTarget, CanvasSource, Output, QUALITY_MEDIUM, WebMOutputFormat, canEncodeVideo } from 'mediabunny';
import { frameDurationUs, frameTimestampUs } from '../../src/core/video/frame-timing';
import type { FrameCompositor } from './frame-compositor';

export interface EncodedWebm {
  bytes: Uint8Array;
  mimeType: string;
  codec: string;
}

/** True when this context has a VP9 WebCodecs encoder for the size. */
export async function canEncodeVp9(width: number, height: number): Promise<boolean> {
  if (typeof VideoEncoder === 'undefined') return false;
  return canEncodeVideo('vp9', { width, height });
}

export async function encodeWebm(compositor: FrameCompositor, fps: number): Promise<EncodedWebm> {
  const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
  let codec = 'vp9';
  // One key frame a second keeps seeking cheap; 'quality' latency never drops a frame.
  const source = new CanvasSource(compositor.canvas, {
    codec: 'vp9', quality: QUALITY_MEDIUM, keyFrameInterval: 1, latencyMode: 'quality',
    onEncoderConfig: (config) => { codec = config.codec; },
  });
  output.addVideoTrack(source, { frameRate: fps });
  await output.start();
  try {
    for (let frameIndex = 0; frameIndex < compositor.frames; frameIndex++) {
      compositor.draw(frameIndex);
      await source.add(frameTimestampUs(frameIndex, fps) / 1e6, frameDurationUs(frameIndex, fps) / 1e6);
    }
    source.close();
    await output.finalize();
  } catch (error) {
    await output.cancel();
    throw error;
  }
  const buffer = output.target.buffer;
  if (!buffer) throw new Error('the WebM muxer finished without a file');
  return { bytes: new Uint8Array(buffer), mimeType: await output.getMimeType(), codec };
}
