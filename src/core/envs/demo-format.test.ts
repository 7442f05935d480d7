import { describe, expect, it } from 'vitest';
import { demoMetadataFor, readDemoFile, writeDemoFile } from './demo-format';
import type { Demonstrations } from './expert-rollout';
import { createRng } from '../random';
import { ConfigError } from '../errors';

function randomDemos(seed: number): Demonstrations {
  const rng = createRng(seed);
  const obsDim = 5, actionDim = 4, steps = 7;
  return {
    task: 'lift', obsMode: 'state', obsDim, actionDim,
    obs: new Float32Array(steps * obsDim).map(() => rng.normal()),
    actions: new Float32Array(steps * actionDim).map(() => rng.uniform() * 2 - 1),
    rewards: new Float32Array(steps).map(() => rng.uniform()),
    episodeStarts: Int32Array.from([0, 3, 7]),
    success: Uint8Array.from([1, 0]),
    seeds: Int32Array.from([11, 12]),
  };
}

const metadata = (demos: Demonstrations) => demoMetadataFor(demos, { seed: 11, noise: 0.1, obsSlices: [{ name: 'x', start: 0, dim: 5, doc: 'x' }], maxEpisodeSteps: 100 });

describe('demo file', () => {
  it('round-trips every tensor and the metadata', () => {
    const demos = randomDemos(1);
    const bytes = writeDemoFile(demos, metadata(demos));
    const view = new DataView(bytes.buffer);
    const headerLength = Number(view.getBigUint64(0, true));
    expect(headerLength % 8).toBe(0);
    // Safetensors layout: the JSON header names dtype, shape and offsets.
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
    expect(header.obs).toEqual({ dtype: 'F32', shape: [7, 5], data_offsets: [0, 140] });
    const { demos: back, metadata: meta } = readDemoFile(bytes);
    expect([...back.obs]).toEqual([...demos.obs]);
    expect([...back.actions]).toEqual([...demos.actions]);
    expect([...back.rewards]).toEqual([...demos.rewards]);
    expect([...back.episodeStarts]).toEqual([0, 3, 7]);
    expect([...back.success]).toEqual([1, 0]);
    expect([...back.seeds]).toEqual([11, 12]);
    expect(meta.success_rate).toBe(0.5);
    expect(meta.steps).toBe(7);
    expect(meta.task).toBe('lift');
    // Raw little-endian floats: the first obs value sits right after the header.
    expect(view.getFloat32(8 + headerLength, true)).toBe(demos.obs[0]);
  });

  it('rejects truncated, oversized and inconsistent files with a named error', () => {
    const demos = randomDemos(2);
    const bytes = writeDemoFile(demos, metadata(demos));
    expect(() => readDemoFile(bytes.subarray(0, 4))).toThrow(ConfigError);
    expect(() => readDemoFile(bytes.subarray(0, bytes.length - 4))).toThrow(/data_offsets/);
    const huge = bytes.slice();
    new DataView(huge.buffer).setBigUint64(0, 1n << 40n, true);
    expect(() => readDemoFile(huge)).toThrow(/cap/);
    const badTask = writeDemoFile(demos, { ...metadata(demos), task: 'push' as never });
    expect(() => readDemoFile(badTask)).toThrow(/allowed values: reach, lift, pick-cube/);
    const nan = randomDemos(3);
    nan.actions[5] = Number.NaN;
    expect(() => readDemoFile(writeDemoFile(nan, metadata(nan)))).toThrow(/non-finite value at element 5/);
  });
});
