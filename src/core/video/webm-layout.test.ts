import { describe, expect, it } from 'vitest';
import { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Output, WebMOutputFormat } from 'mediabunny';
import { EBML_IDS, webmLayout } from './webm-layout';

/** EBML element: id bytes as written, an 8-byte size (0x01 marker), then the data. */
function element(id: number, data: Uint8Array): Uint8Array {
  const idBytes: number[] = [];
  for (let rest = id; rest > 0; rest = Math.floor(rest / 256)) idBytes.unshift(rest % 256);
  const size = [0x01, 0, 0, 0, 0, 0, 0, 0];
  for (let index = 7, rest = data.length; index >= 1; index--, rest = Math.floor(rest / 256)) size[index] = rest % 256;
  return concat(new Uint8Array(idBytes), new Uint8Array(size), data);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) { out.set(part, offset); offset += part.length; }
  return out;
}

function float64(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value);
  return bytes;
}

describe('webm layout', () => {
  it('lists Segment children and reads Duration × TimestampScale from Info', () => {
    // TimestampScale 1e6 ns (1 ms ticks, bytes 0x0f 0x42 0x40) and Duration 2050 ticks: 2050 × 1e6 ns = 2.05 s.
    const info = element(EBML_IDS.info, concat(element(EBML_IDS.timestampScale, new Uint8Array([0x0f, 0x42, 0x40])), element(EBML_IDS.duration, float64(2050))));
    const segment = element(EBML_IDS.segment, concat(info, element(EBML_IDS.tracks, new Uint8Array(3)), element(EBML_IDS.cluster, new Uint8Array(10)), element(EBML_IDS.cues, new Uint8Array(2))));
    const file = concat(element(EBML_IDS.ebml, new Uint8Array(4)), segment);
    const layout = webmLayout(file);
    expect(layout.segmentChildren).toEqual(['Info', 'Tracks', 'Cluster', 'Cues']);
    expect(layout.hasCues).toBe(true);
    expect(layout.durationSeconds).toBeCloseTo(2.05, 12);
  });

  it('a live-style file without Cues or Duration says so', () => {
    const info = element(EBML_IDS.info, element(EBML_IDS.timestampScale, new Uint8Array([0x0f, 0x42, 0x40])));
    const file = concat(element(EBML_IDS.ebml, new Uint8Array(1)), element(EBML_IDS.segment, concat(info, element(EBML_IDS.cluster, new Uint8Array(5)))));
    const layout = webmLayout(file);
    expect(layout).toEqual({ segmentChildren: ['Info', 'Cluster'], hasCues: false, durationSeconds: undefined });
  });

  it('reads a file muxed by mediabunny: 7 frames at 20 fps last 0.35 s and have Cues', async () => {
    const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
    const source = new EncodedVideoPacketSource('vp9');
    output.addVideoTrack(source, { frameRate: 20 });
    await output.start();
    for (let frameIndex = 0; frameIndex < 7; frameIndex++) {
      const packet = new EncodedPacket(new Uint8Array([0x82, 0x49, 0x83, 0x42, 0x00, frameIndex]), frameIndex === 0 ? 'key' : 'delta', frameIndex / 20, 1 / 20);
      await source.add(packet, frameIndex === 0 ? { decoderConfig: { codec: 'vp09.00.10.08', codedWidth: 64, codedHeight: 48 } } : undefined);
    }
    await output.finalize();
    const layout = webmLayout(new Uint8Array(output.target.buffer as ArrayBuffer));
    expect(layout.hasCues).toBe(true);
    expect(layout.segmentChildren).toContain('Cluster');
    // 7 frames / 20 fps = 0.35 s.
    expect(layout.durationSeconds).toBeCloseTo(0.35, 6);
  });

  it('rejects bytes that are not a WebM file', () => {
    expect(() => webmLayout(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toThrow(/not a WebM file: it does not start with an EBML header/);
    expect(() => webmLayout(new Uint8Array([0x00, 0x01]))).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'bytes' }));
    const noSegment = concat(element(EBML_IDS.ebml, new Uint8Array(1)), element(EBML_IDS.info, new Uint8Array(1)));
    expect(() => webmLayout(noSegment)).toThrow(/no Segment after the EBML header/);
    expect(() => webmLayout(new Uint8Array([0x1a, 0x45]))).toThrow(/ends inside an element header/);
  });
});
