import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { ConfigError } from '../errors';
import type { Mujoco } from './mujoco-types';
import { demoMetadataFor, firstDemoEpisodes, readDemoFile, writeDemoFile } from './demo-format';
import { collectExpertDemos, mergeDemonstrations, type Demonstrations } from './expert-rollout';
import { observationSpec } from './observation';
import { getTask } from './task-registry';
import { VectorEnv } from './vector-env';
import { injectCameraImageSource } from './camera/image-source';
import { StatePaintedImageSource } from './camera/state-painted-image-source';

let mj: Mujoco;
let demos: Demonstrations;
const SIZE = 16;
const IMAGE = { cameras: ['front', 'wrist'], size: SIZE };

beforeAll(async () => {
  mj = await loadMujocoNode();
  injectCameraImageSource((request) => new StatePaintedImageSource(request));
  demos = collectExpertDemos(mj, { task: 'reach', episodes: 2, seed: 3, noise: 0, obsMode: 'rgb', cameras: IMAGE.cameras, imageSize: SIZE });
});
afterAll(() => injectCameraImageSource(undefined));

const metadataOf = (set: Demonstrations) => demoMetadataFor(set, {
  seed: 3, noise: 0, obsSlices: observationSpec(getTask('reach'), 'rgb', 0, IMAGE).slices, maxEpisodeSteps: getTask('reach').maxEpisodeSteps,
});

/** The file with its header edited by `edit` (tensor entries and the parsed metadata), padded again to 8 bytes. */
function withHeader(bytes: Uint8Array, edit: (header: Record<string, { shape: number[]; data_offsets: number[] }>, metadata: Record<string, unknown>) => void): Uint8Array {
  const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const metadata = JSON.parse(header.__metadata__.flowtune_demos);
  edit(header, metadata);
  header.__metadata__.flowtune_demos = JSON.stringify(metadata);
  let json = JSON.stringify(header);
  while (json.length % 8 !== 0) json += ' ';
  const encoded = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + encoded.length + bytes.length - 8 - headerLength);
  new DataView(out.buffer).setBigUint64(0, BigInt(encoded.length), true);
  out.set(encoded, 8);
  out.set(bytes.subarray(8 + headerLength), 8 + encoded.length);
  return out;
}

describe('scripted-expert demos with camera images (obs=rgb)', () => {
  it('record each step\'s images beside its observation, the first of an episode as a reset shows it', () => {
    const steps = demos.actions.length / demos.actionDim;
    const bytes = 2 * SIZE * SIZE * 3;
    expect(demos.obsMode).toBe('rgb');
    expect(demos.imageSpec).toEqual({ cameras: ['front', 'wrist'], size: SIZE, channels: 3 });
    expect(demos.images).toHaveLength(steps * bytes);
    const env = new VectorEnv(mj, { task: 'reach', numEnvs: 1, obsMode: 'rgb', cameras: IMAGE.cameras, imageSize: SIZE });
    try {
      for (let episode = 0; episode < 2; episode++) {
        env.reset([3 + episode]);
        const first = demos.episodeStarts[episode];
        expect(demos.images!.subarray(first * bytes, (first + 1) * bytes)).toEqual(env.images());
      }
    } finally {
      env.dispose();
    }
    // The arm moves, so the images change along an episode.
    const last = demos.episodeStarts[1] - 1;
    expect(demos.images!.subarray(0, bytes)).not.toEqual(demos.images!.subarray(last * bytes, (last + 1) * bytes));
  });

  it('round-trip through a demos file byte for byte, and through merging and cutting episodes', () => {
    const file = writeDemoFile(demos, metadataOf(demos));
    const { demos: read, metadata } = readDemoFile(file);
    expect(metadata.image).toEqual({ cameras: ['front', 'wrist'], size: SIZE, channels: 3 });
    expect(read.imageSpec).toEqual(demos.imageSpec);
    expect(read.images).toEqual(demos.images);
    expect(read.obs).toEqual(demos.obs);
    const merged = mergeDemonstrations([read, demos]);
    expect(merged.images).toHaveLength(2 * demos.images!.length);
    const first = firstDemoEpisodes(merged, 1);
    expect(first.images).toEqual(demos.images!.subarray(0, demos.episodeStarts[1] * 2 * SIZE * SIZE * 3));
  });

  it('refuse a hostile file whose images do not match what it declares, each with one sentence', () => {
    const file = writeDemoFile(demos, metadataOf(demos));
    const steps = demos.actions.length / demos.actionDim;
    const refusal = (bytes: Uint8Array) => {
      try {
        readDemoFile(bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    // The metadata says 32-pixel images, the tensor holds 16-pixel ones.
    expect(refusal(withHeader(file, (_, metadata) => { (metadata.image as { size: number }).size = 32; })))
      .toBe(`demo tensor 'images' has shape [${steps},2,16,16,3]; expected [${steps}, 2, 32, 32, 3]`);
    // The tensor claims another shape than its bytes and the metadata.
    expect(refusal(withHeader(file, (header) => { header.images.shape = [steps, 2, 16, 8, 3]; })))
      .toBe(`demo tensor 'images' has shape [${steps},2,16,8,3]; expected [${steps}, 2, 16, 16, 3]`);
    // An image size far beyond the bounds is refused before anything is sized from it.
    expect(refusal(withHeader(file, (_, metadata) => { (metadata.image as { size: number }).size = 1_000_000; })))
      .toMatch(/^demo metadata field 'image' must be \{cameras: 1–16 camera names, size: an integer in \[4, 512\], channels: 3\} for obs_mode 'rgb', got /);
    // rgbd images need four channels; an rgb file without image metadata is no image file.
    expect(refusal(withHeader(file, (_, metadata) => { metadata.obs_mode = 'rgbd'; }))).toMatch(/channels: 4\} for obs_mode 'rgbd'/);
    expect(refusal(withHeader(file, (_, metadata) => { delete metadata.image; }))).toMatch(/^demo metadata field 'image' must be .* got nothing$/);
    expect(refusal(withHeader(file, (header, metadata) => { metadata.obs_mode = 'state'; delete header.images; })))
      .toBe("demo metadata field 'image' describes camera images, but obs_mode 'state' holds none");
  });
});
