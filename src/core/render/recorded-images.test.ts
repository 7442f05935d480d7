import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { ShapeError } from '../errors';
import type { ObsMode } from '../envs/task-types';
import { VectorEnv } from '../envs/vector-env';
import type { Mujoco } from '../envs/mujoco-types';
import { createRng } from '../random';
import { renderRecordedImages } from './recorded-images';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

/** Pixels (all channels together) where two images of `channels` bytes a pixel differ. */
function differingPixels(a: Uint8Array, b: Uint8Array, channels: number): number {
  let count = 0;
  for (let pixel = 0; pixel < a.length / channels; pixel++) {
    for (let channel = 0; channel < channels; channel++) {
      if (a[pixel * channels + channel] !== b[pixel * channels + channel]) {
        count++;
        break;
      }
    }
  }
  return count;
}

/** One pick-cube env on two cameras: its images after reset and after each of `steps` random control steps, and its record. */
function recordedEpisode(obsMode: ObsMode, size: number, steps: number, seed = 5) {
  const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode, cameras: ['front', 'wrist'], imageSize: size, recordEpisodes: true });
  try {
    env.reset([seed]);
    const images: Uint8Array[] = [env.images()];
    const rng = createRng(3);
    for (let step = 0; step < steps; step++) {
      images.push(env.stepChunk(Float32Array.from({ length: env.config.actionDim }, () => 2 * rng.uniform() - 1), 1, 1).images!);
    }
    return { images, record: env.env(0).episodeRecord(0), layout: env.imageSpec!, scene: env.scene, dispose: () => env.dispose() };
  } catch (error) {
    env.dispose();
    throw error;
  }
}

describe('renderRecordedImages (an image policy\'s view of a stored episode step)', () => {
  it('renders a frame after reset bit for bit as the env did, rgb and rgbd, in the layout\'s camera order', () => {
    for (const [obsMode, size, channels] of [['rgb', 16, 3], ['rgbd', 24, 4]] as const) {
      const episode = recordedEpisode(obsMode, size, 0);
      try {
        const rendered = renderRecordedImages(episode.scene, episode.record, 0, episode.layout, 'pick-cube');
        expect(rendered.length).toBe(2 * size * size * channels);
        expect(Buffer.from(rendered).equals(Buffer.from(episode.images[0]))).toBe(true);
        // 'default' is the scene's first camera, as an env resolves it.
        const front = renderRecordedImages(episode.scene, episode.record, 0, { cameras: ['default'], size, channels }, 'pick-cube');
        expect(Buffer.from(front).equals(Buffer.from(episode.images[0].subarray(0, size * size * channels)))).toBe(true);
      } finally {
        episode.dispose();
      }
    }
  });

  it('renders later frames from the recorded pose: some edge pixels differ from the rollout\'s, the arm\'s motion shows', () => {
    const size = 32;
    const episode = recordedEpisode('rgb', size, 12);
    try {
      const pixels = 2 * size * size;
      const shares: number[] = [];
      for (let frame = 1; frame <= 12; frame++) {
        const rendered = renderRecordedImages(episode.scene, episode.record, frame, episode.layout);
        shares.push(differingPixels(rendered, episode.images[frame], 3) / pixels);
      }
      // The env renders right after mj_step, whose kinematics are one physics substep behind the qpos it records (kept
      // as float32): edges move by a pixel here and there. Over 40 reset seeds × 12 random steps at 32×32 (front and
      // wrist cameras) the share of differing pixels had median 2.8 %, 90th percentile 4.2 % and maximum 12.4 %.
      shares.sort((a, b) => a - b);
      expect(shares[6]).toBeLessThan(0.05);
      expect(shares[11]).toBeLessThan(0.2);
      // Twelve random steps move the arm: most of the difference from the first frame is real motion.
      const first = renderRecordedImages(episode.scene, episode.record, 0, episode.layout);
      const last = renderRecordedImages(episode.scene, episode.record, 12, episode.layout);
      expect(differingPixels(first, last, 3)).toBeGreaterThan(differingPixels(last, episode.images[12], 3));
    } finally {
      episode.dispose();
    }
  });

  it('refuses a frame the record does not hold, naming the range', () => {
    const episode = recordedEpisode('rgb', 8, 2);
    try {
      expect(() => renderRecordedImages(episode.scene, episode.record, 3, episode.layout)).toThrow(ShapeError);
      expect(() => renderRecordedImages(episode.scene, episode.record, 3, episode.layout)).toThrow('frame 3 is outside the episode\'s 3 recorded frames (0 to 2)');
    } finally {
      episode.dispose();
    }
  });
});
