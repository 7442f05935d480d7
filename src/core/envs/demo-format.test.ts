import { describe, expect, it } from 'vitest';
import { demoMetadataFor, firstDemoEpisodes, readDemoFile, writeDemoFile } from './demo-format';
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

/**
 * The file with its JSON header (and so its metadata) changed by `edit`, padded again to 8 bytes;
 * a string `edit` returns replaces the metadata JSON.
 */
function withHeader(bytes: Uint8Array, edit: (header: Record<string, { shape: number[]; data_offsets: number[] }>, metadata: Record<string, unknown>) => unknown): Uint8Array {
  const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const meta = JSON.parse(header.__metadata__.flowtune_demos);
  const replaced = edit(header, meta);
  header.__metadata__.flowtune_demos = typeof replaced === 'string' ? replaced : JSON.stringify(meta);
  let json = JSON.stringify(header);
  while (json.length % 8 !== 0) json += ' ';
  const encoded = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + encoded.length + bytes.length - 8 - headerLength);
  new DataView(out.buffer).setBigUint64(0, BigInt(encoded.length), true);
  out.set(encoded, 8);
  out.set(bytes.subarray(8 + headerLength), 8 + encoded.length);
  return out;
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
    const badTask = writeDemoFile(demos, { ...metadata(demos), task: '../push' as never });
    expect(() => readDemoFile(badTask)).toThrow(/^demo task "..\/push" is not a task name/);
    const nan = randomDemos(3);
    nan.actions[5] = Number.NaN;
    expect(() => readDemoFile(writeDemoFile(nan, metadata(nan)))).toThrow(/non-finite value at element 5/);
  });

  it('refuses metadata a reader would size tensors from, or read, when it is missing or out of range, naming the field', () => {
    const demos = randomDemos(4);
    const bytes = writeDemoFile(demos, metadata(demos));
    // Negative steps with tensor shapes and offsets that agree with them: nothing is sized from it.
    const negative = withHeader(bytes, (header, meta) => {
      meta.steps = -29;
      header.obs.shape = [-29, 5];
      header.obs.data_offsets = [600, 20];
    });
    expect(() => readDemoFile(negative)).toThrow(ConfigError);
    expect(() => readDemoFile(negative)).toThrow(/^demo metadata field 'steps' must be an integer ≥ 0, got -29$/);
    const noSlices = withHeader(bytes, (_header, meta) => delete meta.obs_slices);
    expect(() => readDemoFile(noSlices)).toThrow(/^demo metadata field 'obs_slices' must be a list of observation slices \{name, start, dim\} within obs_dim \(5\), got nothing$/);
    const sliceOutside = withHeader(bytes, (_header, meta) => { meta.obs_slices = [{ name: 'x', start: 2, dim: 5, doc: 'x' }]; });
    expect(() => readDemoFile(sliceOutside)).toThrow(/'obs_slices' must be .* but entry 0 is \{"name":"x","start":2,"dim":5,"doc":"x"\}$/);
    const fractional = withHeader(bytes, (_header, meta) => { meta.obs_dim = 2.5; });
    expect(() => readDemoFile(fractional)).toThrow(/^demo metadata field 'obs_dim' must be an integer ≥ 1, got 2.5$/);
    const noControl = withHeader(bytes, (_header, meta) => delete meta.control_mode);
    expect(() => readDemoFile(noControl)).toThrow(/^demo metadata field 'control_mode' must be a string, got nothing$/);
    const notObject = withHeader(bytes, () => 'null');
    expect(() => readDemoFile(notObject)).toThrow(/^demo metadata must be a JSON object, got null$/);
    // The helper itself changes nothing else: an untouched header reads back.
    expect(readDemoFile(withHeader(bytes, () => undefined)).metadata.steps).toBe(7);
  });
});

describe('how episodes ended', () => {
  it('round-trips terminated beside the other tensors, and files without it read as before', () => {
    const demos = { ...randomDemos(4), terminated: Uint8Array.from([1, 0]) };
    const { demos: back } = readDemoFile(writeDemoFile(demos, metadata(demos)));
    expect([...back.terminated!]).toEqual([1, 0]);
    const plain = randomDemos(4);
    expect(readDemoFile(writeDemoFile(plain, metadata(plain))).demos.terminated).toBeUndefined();
  });

  it('keeps the ends of the first episodes, and refuses flags other than 0 and 1', () => {
    const demos = { ...randomDemos(5), terminated: Uint8Array.from([0, 1]) };
    expect([...firstDemoEpisodes(demos, 1).terminated!]).toEqual([0]);
    const bad = { ...demos, terminated: Uint8Array.from([2, 1]) };
    expect(() => readDemoFile(writeDemoFile(bad, metadata(bad)))).toThrow(/'terminated' must hold 0 \(truncated\) or 1 \(terminated\)/);
  });
});
