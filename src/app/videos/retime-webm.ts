/**
 * Rewrites a video's packets with exact frame times i / fps and muxes them anew, so a
 * MediaRecorder file (wall-clock times, no Cues, often no duration) becomes a WebM
 * with the episode's duration and a seek index. Packets are copied, not re-encoded.
 */
import { ALL_FORMATS, BufferSource, BufferTarget, EncodedPacketSink, EncodedVideoPacketSource, Input, Output, WebMOutputFormat } from 'mediabunny';
import { ShapeError } from '../../core/errors';
import { frameDurationUs, frameTimestampUs } from '../../core/video/frame-timing';

export interface RetimedWebm {
  bytes: Uint8Array;
  frames: number;
  codec: string;
}

export async function retimeWebm(bytes: Uint8Array, fps: number): Promise<RetimedWebm> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track || !track.codec) throw new ShapeError('bytes', 'the recorded file has no video track to retime');
    const decoderConfig = await track.getDecoderConfig();
    if (!decoderConfig) throw new ShapeError('bytes', `the recorded ${track.codec} track has no decoder config`);
    const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
    const source = new EncodedVideoPacketSource(track.codec);
    output.addVideoTrack(source, { frameRate: fps });
    await output.start();
    let frameIndex = 0;
    for await (const packet of new EncodedPacketSink(track).packets()) {
      const retimed = packet.clone({ timestamp: frameTimestampUs(frameIndex, fps) / 1e6, duration: frameDurationUs(frameIndex, fps) / 1e6 });
      await source.add(retimed, frameIndex === 0 ? { decoderConfig } : undefined);
      frameIndex++;
    }
    if (frameIndex === 0) {
      await output.cancel();
      throw new ShapeError('bytes', 'the recorded file has no video frames');
    }
    source.close();
    await output.finalize();
    return { bytes: new Uint8Array(output.target.buffer as ArrayBuffer), frames: frameIndex, codec: decoderConfig.codec };
  } finally {
    input.dispose();
  }
}
