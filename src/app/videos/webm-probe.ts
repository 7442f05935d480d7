/** What a WebM file holds, read back with mediabunny's demuxer: frames, duration, codec, size. */
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';

export interface WebmProbe {
  /** Video packets: one per encoded frame. */
  frames: number;
  /** End of the last frame, in seconds. */
  durationSeconds: number;
  /** Full codec string, e.g. "vp09.00.10.08.01.02.02.02.00". */
  codec: string;
  width: number;
  height: number;
  /** Timestamps of every packet in seconds, in decode order. */
  timestamps: number[];
}

export async function probeWebm(bytes: Uint8Array): Promise<WebmProbe> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new Error('the file has no video track');
    const timestamps: number[] = [];
    for await (const packet of new EncodedPacketSink(track).packets()) timestamps.push(packet.timestamp);
    return {
      frames: timestamps.length,
      durationSeconds: await input.computeDuration(),
      codec: (await track.getCodecParameterString()) ?? String(track.codec),
      width: track.codedWidth,
      height: track.codedHeight,
      timestamps,
    };
  } finally {
    input.dispose();
  }
}
