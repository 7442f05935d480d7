import { describe, expect, it } from 'vitest';
import { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Output, WebMOutputFormat } from 'mediabunny';
import { createRng } from '../../core/random';
import { webmLayout } from '../../core/video/webm-layout';
import { retimeWebm } from './retime-webm';
import { probeWebm } from './webm-probe';

/** A WebM like MediaRecorder writes: jittery wall-clock times and no Cues (append-only). */
async function recordedWebm(frames: number, seed: number): Promise<Uint8Array> {
  const rng = createRng(seed);
  const output = new Output({ format: new WebMOutputFormat({ appendOnly: true }), target: new BufferTarget() });
  const source = new EncodedVideoPacketSource('vp9');
  output.addVideoTrack(source);
  await output.start();
  let time = 0.013;
  for (let frameIndex = 0; frameIndex < frames; frameIndex++) {
    const payload = new Uint8Array([0x82, 0x49, 0x83, 0x42, 0x00, frameIndex & 0xff, frameIndex >> 8]);
    await source.add(new EncodedPacket(payload, frameIndex % 10 === 0 ? 'key' : 'delta', time, 0),
      frameIndex === 0 ? { decoderConfig: { codec: 'vp09.00.10.08', codedWidth: 64, codedHeight: 48 } } : undefined);
    time += 0.03 + 0.04 * rng.uniform();
  }
  await output.finalize();
  return new Uint8Array(output.target.buffer as ArrayBuffer);
}

describe('retimeWebm', () => {
  it('gives every packet the time i / fps, keeps the payloads, and writes Duration and Cues', async () => {
    const frames = 23;
    const recorded = await recordedWebm(frames, 5);
    expect(webmLayout(recorded).hasCues).toBe(false);
    const retimed = await retimeWebm(recorded, 20);
    expect(retimed.frames).toBe(frames);
    expect(retimed.codec).toMatch(/^vp09\.00\.10\.08/);
    const layout = webmLayout(retimed.bytes);
    expect(layout.hasCues).toBe(true);
    // 23 frames at 20 fps: 23 / 20 = 1.15 s.
    expect(layout.durationSeconds).toBeCloseTo(1.15, 6);
    const probe = await probeWebm(retimed.bytes);
    expect(probe.frames).toBe(frames);
    expect(probe.durationSeconds).toBeCloseTo(1.15, 6);
    expect(probe.width).toBe(64);
    // Frame i starts at i / 20 s (the container stores whole milliseconds).
    probe.timestamps.forEach((timestamp, frameIndex) => expect(timestamp).toBeCloseTo(frameIndex / 20, 3));
  });

  it('rejects a file without frames and bytes that are not a video', async () => {
    const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
    output.addVideoTrack(new EncodedVideoPacketSource('vp9'));
    await output.start();
    await output.finalize();
    await expect(retimeWebm(new Uint8Array(output.target.buffer as ArrayBuffer), 20)).rejects.toThrow(/no (video frames|video track|decoder config)/);
    await expect(retimeWebm(new Uint8Array([1, 2, 3, 4]), 20)).rejects.toThrow();
  });
});
