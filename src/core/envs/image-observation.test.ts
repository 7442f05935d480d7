import { MessageChannel } from 'node:worker_threads';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { createRng } from '../random';
import { ConfigError } from '../errors';
import type { Mujoco } from './mujoco-types';
import { getTask } from './task-registry';
import { observationSpec } from './observation';
import { VectorEnv } from './vector-env';
import { ShardedVectorEnv } from './sharded-vector-env';
import { serveEnvShard } from './shard-server';
import type { ShardPort } from './shard-protocol';
import { injectCameraImageSource } from './camera/image-source';
import { paintedBackground, paintedCentre, StatePaintedImageSource } from './camera/state-painted-image-source';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});
afterEach(() => injectCameraImageSource(undefined));

const useStandIn = () => injectCameraImageSource((request) => new StatePaintedImageSource(request));
const SIZE = 16;

/** An env shard served in this thread over a MessageChannel: the worker protocol without a worker. */
function inThreadShardPort(): ShardPort {
  const channel = new MessageChannel();
  const workerSide: ShardPort = {
    postMessage: (message, transfer) => channel.port2.postMessage(message, transfer as never),
    onMessage: (handler) => channel.port2.on('message', handler),
    terminate: () => channel.port2.close(),
  };
  serveEnvShard(mj, workerSide);
  return {
    postMessage: (message, transfer) => channel.port1.postMessage(message, transfer as never),
    onMessage: (handler) => channel.port1.on('message', handler),
    terminate: () => channel.port1.close(),
  };
}

/**
 * The stand-in's image of one camera as the test computes it: a square of half side ⌊S/8⌋ = 2 centred at
 * column paintedCentre(qpos[2c]) and row paintedCentre(qpos[2c + 1]), on the gradient elsewhere.
 */
function expectedImage(qpos: Float64Array, camera: number, channels: number): Uint8Array {
  const out = new Uint8Array(SIZE * SIZE * channels);
  const column0 = paintedCentre(qpos[2 * camera], SIZE);
  const row0 = paintedCentre(qpos[2 * camera + 1], SIZE);
  for (let row = 0; row < SIZE; row++) {
    for (let column = 0; column < SIZE; column++) {
      const inside = Math.abs(row - row0) <= 2 && Math.abs(column - column0) <= 2;
      for (let channel = 0; channel < channels; channel++) {
        const at = (row * SIZE + column) * channels + channel;
        if (channel === 3) out[at] = Math.min(255, 4 * (Math.abs(row - row0) + Math.abs(column - column0)));
        else out[at] = inside ? (channel === camera % 3 ? 255 : 32) : paintedBackground(row, column, channel);
      }
    }
  }
  return out;
}

describe('image observations (env.obs_type rgb, rgbd)', () => {
  it('carry the proprioception the task marks for the mode as the float row, and the cameras asked for', () => {
    const spec = observationSpec(getTask('pick-cube'), 'rgb', 0, { cameras: ['front', 'wrist'], imageSize: 32 });
    // joint_qpos 7 | gripper_qpos 2 | tcp_pos 3 | goal_pos 3: the arm's proprioception beside images, and the goal the camera does not show.
    expect(spec.slices.map((slice) => `${slice.name} ${slice.dim}`)).toEqual(['joint_qpos 7', 'gripper_qpos 2', 'tcp_pos 3', 'goal_pos 3']);
    expect(spec.dim).toBe(15);
    expect(spec.image).toEqual({ cameras: ['front', 'wrist'], size: 32, channels: 3 });
    expect(observationSpec(getTask('pick-cube'), 'rgbd').image).toEqual({ cameras: ['default'], size: 64, channels: 4 });
    expect(observationSpec(getTask('pick-cube'), 'state').image).toBeUndefined();
  });

  it('resolve the default camera to the scene\'s first, and refuse a camera the scene does not have, naming its cameras', () => {
    useStandIn();
    const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode: 'rgb', imageSize: SIZE });
    try {
      expect(env.imageSpec).toEqual({ cameras: ['front'], size: SIZE, channels: 3 });
      expect(env.imageBytes).toBe(SIZE * SIZE * 3);
    } finally {
      env.dispose();
    }
    const unknown = () => new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode: 'rgb', cameras: ['top'] });
    expect(unknown).toThrow(ConfigError);
    expect(unknown).toThrow("env.camera 'top' is not a camera of task 'pick-cube'; its cameras: front, wrist");
  });

  it('follow the simulation state: each env\'s images after reset and after every chunk are its own qpos painted, auto-resets included', () => {
    useStandIn();
    const numEnvs = 3;
    const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs, obsMode: 'rgbd', cameras: ['front', 'wrist'], imageSize: SIZE, maxEpisodeSteps: 3 });
    try {
      const bytes = 2 * SIZE * SIZE * 4;
      const check = (images: Uint8Array) => {
        for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
          const qpos = Float64Array.from(env.env(envIndex).arrays.qpos);
          for (let camera = 0; camera < 2; camera++) {
            const from = envIndex * bytes + camera * SIZE * SIZE * 4;
            expect(images.subarray(from, from + SIZE * SIZE * 4)).toEqual(expectedImage(qpos, camera, 4));
          }
        }
      };
      env.reset([1, 2, 3]);
      check(env.images());
      const rng = createRng(5);
      let sawReset = false;
      for (let chunk = 0; chunk < 4; chunk++) {
        const actions = new Float32Array(numEnvs * 2 * 4).map(() => 2 * rng.uniform() - 1);
        const before = env.images();
        const result = env.stepChunk(actions, 2, 0.99);
        check(result.images!);
        expect(env.images()).toEqual(result.images);
        expect(result.images).not.toEqual(before);
        for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
          const row = (images: Uint8Array) => images.subarray(envIndex * bytes, (envIndex + 1) * bytes);
          // An env not done shows the same images before and after auto-reset; a reset one shows its new episode.
          if (result.truncated[envIndex] || result.terminated[envIndex]) {
            sawReset = true;
            expect(row(result.finalImages!)).not.toEqual(row(result.images!));
          } else {
            expect(row(result.finalImages!)).toEqual(row(result.images!));
          }
        }
      }
      expect(sawReset).toBe(true);
      // A snapshot keeps the current images; a batch restored from it shows them again.
      env.drainEpisodes();
      const snapshot = env.snapshot();
      env.stepChunk(new Float32Array(numEnvs * 4), 1, 1);
      env.restore(snapshot);
      expect(env.images()).toEqual(snapshot.images);
    } finally {
      env.dispose();
    }
  });

  it('travel through env shards, with transfer and shared memory, as the in-thread env gives them', async () => {
    useStandIn();
    const config = { task: 'pick-cube', numEnvs: 3, obsMode: 'rgb' as const, cameras: ['wrist', 'front'], imageSize: SIZE, maxEpisodeSteps: 4 };
    const plan = Array.from({ length: 4 }, (_, chunk) => new Float32Array(3 * 2 * 4).map((_, index) => Math.sin(chunk * 7 + index)));
    const local = new VectorEnv(mj, config);
    const expected: Uint8Array[] = [];
    try {
      local.reset([7, 8, 9]);
      expected.push(local.images());
      for (const actions of plan) {
        const result = local.stepChunk(actions, 2, 0.9);
        expected.push(result.images!, result.finalImages!);
      }
    } finally {
      local.dispose();
    }
    for (const sharedMemory of [false, true]) {
      const sharded = await ShardedVectorEnv.create(config, () => inThreadShardPort(), { numWorkers: 2, sharedMemory });
      try {
        expect(sharded.imageSpec).toEqual({ cameras: ['wrist', 'front'], size: SIZE, channels: 3 });
        await sharded.reset([7, 8, 9]);
        const got = [sharded.images()];
        for (const actions of plan) {
          const result = await sharded.stepChunk(actions, 2, 0.9);
          got.push(result.images!, result.finalImages!);
        }
        expect(got).toEqual(expected);
        await sharded.drainEpisodes();
        const snapshot = await sharded.snapshot();
        expect(snapshot.images).toEqual(expected.at(-2));
      } finally {
        await sharded.dispose();
      }
    }
  });
});
