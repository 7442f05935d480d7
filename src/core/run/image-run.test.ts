import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { nodeRunPorts } from '../../cli/node-run-ports';
import { RunFolderStore } from '../../cli/run-folder-store';
import { decodeCheckpoint, type CheckpointFiles } from '../checkpoint/checkpoint-open';
import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { applyOverrides, defaultConfig, validateConfig, type RunConfig } from '../config';
import { pretrainConfigForDemos } from '../config/pretrain-demos';
import { injectCameraImageSource } from '../envs/camera/image-source';
import { StatePaintedImageSource } from '../envs/camera/state-painted-image-source';
import { demoMetadataFor } from '../envs/demo-format';
import { collectExpertDemos } from '../envs/expert-rollout';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { observationSpec } from '../envs/observation';
import { getTask } from '../envs/task-registry';
import { CheckpointError, ConfigError } from '../errors';
import { createRng } from '../random';
import { OnnxActor } from '../../cli/onnx-actor';
import { readOnnxPolicy } from '../checkpoint/onnx/policy-metadata';
import { maxAbsDifference } from '../checkpoint/onnx/max-abs-difference';
import { loadPolicy } from './families';
import { checkEnvImages } from './fresh-bundle';
import { describeCheckpointPolicy } from './describe-checkpoint';
import { openCheckpoint } from './open-checkpoint';
import { openRun } from './open-run';
import { runPretrainStage, type StageDemos } from './pretrain-stage';
import { runEnvConfig } from './run-env-config';
import { trainLoop } from './run-loop';

let mj: Mujoco;
let demos: StageDemos;
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-image-run-'));
const SIZE = 16;

beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  injectCameraImageSource((request) => new StatePaintedImageSource(request));
  const recorded = collectExpertDemos(mj, { task: 'pick-cube', episodes: 2, seed: 0, noise: 0, obsMode: 'rgb', cameras: ['front'], imageSize: SIZE });
  const task = getTask('pick-cube');
  const metadata = demoMetadataFor(recorded, { seed: 0, noise: 0, obsSlices: observationSpec(task, 'rgb', 0, { cameras: ['front'], imageSize: SIZE }).slices, maxEpisodeSteps: task.maxEpisodeSteps });
  demos = { demos: recorded, metadata, source: "demos file 'pick-cube-rgb.demos'" };
});
afterAll(() => {
  injectCameraImageSource(undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** What `npm run train -- task=pick-cube env.obs_type=rgb ...` would run with, at tiny sizes. */
const TRAIN_ARGS = [
  'task=pick-cube', 'env.obs_type=rgb', 'env.camera=front', `env.image_size=${SIZE}`, 'policy.n_obs_steps=1', 'policy.cnn_channels=4,4', 'policy.image_features=8',
  'policy.hidden=16,16', 'policy.value_hidden=8', 'policy.noise_head_hidden=8', 'policy.horizon=4', 'policy.n_action_steps=2', 'policy.denoise_steps=2',
  'num_envs=2', 'env.workers=1', 'env.steps_per_iteration=3', 'env.max_episode_steps=5', 'ppo.minibatch_size=3', 'ppo.epochs=1', 'ppo.critic_warmup_steps=0',
  'eval_episodes=2', 'eval.every=1', 'seed=4', 'total_env_steps=0', 'iterations=1',
];
const trainConfig = (extra: string[] = []) => validateConfig(applyOverrides(defaultConfig(), [...TRAIN_ARGS, ...extra]));

/** Trains `config` from `files` (or a fresh policy) with the command line's ports and run folder, as `npm run train` does. */
async function train(config: RunConfig, out: string, files?: CheckpointFiles) {
  const opened = files ? openCheckpoint(files, config, []) : { checkpoint: undefined, config };
  const { run, close, notes } = await openRun(opened.config, opened.checkpoint, nodeRunPorts(opened.config));
  try {
    const store = new RunFolderStore(out, opened.config, run.history, 'wasm');
    await trainLoop(run, store, {});
    return { history: run.history.map((record) => Object.fromEntries(Object.entries(record).filter(([key]) => key !== 'progress/wall_s' && !key.startsWith('perf/')))), store, notes };
  } finally {
    await close();
  }
}

const fileAt = (name: string): CheckpointFiles => ({ kind: 'flowtune', name, bytes: new Uint8Array(readFileSync(name)) });

describe('an image policy through BC, PPO, evaluation and checkpoints (stand-in camera source)', () => {
  let bcFile: CheckpointFiles;

  it('learns by BC from image demos, evaluating on image envs, and records its encoder in the checkpoint', async () => {
    const config = pretrainConfigForDemos(trainConfig(['pretrain.steps=3', 'pretrain.batch_size=8']), demos.metadata);
    expect(config.env).toMatchObject({ obs_type: 'rgb', camera: 'front', image_size: SIZE });
    const result = await runPretrainStage({ config, demos, ports: { openEnv: async (envConfig) => new InThreadBatchEnv(mj, envConfig), clock: () => 0 } });
    expect(result.finalEval?.episodes).toBe(2);
    const { architecture, shape_meta: shapeMeta } = result.contents.metadata;
    expect(architecture).toMatchObject({ obsEncoder: 'image', obsDim: 15, image: { cameras: ['front'], size: SIZE, channels: 3, convChannels: [4, 4], featureDim: 8 } });
    expect(shapeMeta.obs).toEqual({ image: { shape: [1, SIZE, SIZE, 3] }, state: { shape: [1, 15] } });
    bcFile = { kind: 'flowtune', name: 'pick-cube-rgb-bc.flowtune', bytes: encodeFlowtune(result.contents) };
  });

  it('fine-tunes the BC policy for one PPO iteration through the command line\'s ports and run folder, and a fresh one too', async () => {
    const fromBc = await train(trainConfig(['iterations=1']), path.join(dir, 'from-bc'), bcFile);
    expect(fromBc.history).toHaveLength(1);
    for (const key of ['losses/policy', 'losses/value', 'eval/episode_return'] as const) expect(Number.isFinite(fromBc.history[0][key])).toBe(true);
    const fresh = await train(trainConfig(['iterations=1']), path.join(dir, 'fresh'));
    expect(fresh.history[0]['progress/iteration']).toBe(1);
    expect(Number.isFinite(fresh.history[0]['losses/policy'])).toBe(true);
  });

  it('reloads from its saved checkpoint with identical actions on the same observation and images, and resumes exactly', async () => {
    const config = trainConfig(['iterations=2', 'checkpoint_every=1']);
    const straight = await train(config, path.join(dir, 'straight'), bcFile);
    // The iteration-1 checkpoint holds the envs' images with their state: a run resumed from it continues exactly.
    const resumed = await train(config, path.join(dir, 'resumed'), fileAt(straight.store.checkpointPath('iter-000001.flowtune')));
    expect(resumed.notes).toEqual([]);
    expect(resumed.history).toEqual(straight.history);
    // A run from a fresh policy too: its env.control_mode=default and the checkpoint's ee_delta_pos name one control.
    const fresh = await train(config, path.join(dir, 'fresh-straight'));
    const freshResumed = await train(config, path.join(dir, 'fresh-resumed'), fileAt(fresh.store.checkpointPath('iter-000001.flowtune')));
    expect(freshResumed.notes).toEqual([]);
    expect(freshResumed.history).toEqual(fresh.history);

    const files = fileAt(straight.store.checkpointPath('final.flowtune'));
    const opened = openCheckpoint(files, config, []);
    expect(describeCheckpointPolicy(opened.checkpoint)).toMatch(/^rgb front 16×16 · .* · obs 15 · act 4$/);
    const first = loadPolicy(opened.checkpoint, opened.config);
    const second = loadPolicy(openCheckpoint(fileAt(straight.store.checkpointPath('final.flowtune')), config, []).checkpoint, opened.config);
    try {
      const rng = createRng(6);
      const obs = Float32Array.from({ length: 3 * 15 }, () => rng.normal());
      const images = Uint8Array.from({ length: 3 * SIZE * SIZE * 3 }, () => rng.int(256));
      const a = await first.evalActor(opened.config).act(obs, 3, createRng(1), images);
      const b = await second.evalActor(opened.config).act(obs, 3, createRng(1), images);
      expect(new Uint32Array(b.buffer)).toEqual(new Uint32Array(a.buffer));
      // The images matter: other pixels give other actions.
      const other = await first.evalActor(opened.config).act(obs, 3, createRng(1), images.map((value) => 255 - value));
      expect(other).not.toEqual(a);
      // The studio's export check feeds env 0's images of this shape beside the observation.
      expect(first.io.imageShape).toEqual([1, SIZE, SIZE, 3]);
      // The ONNX export takes the same images and gives the same actions (to float32 rounding).
      const exported = await first.exportOnnx(opened.checkpoint.metadata);
      expect(exported.description).toMatch(/^obs \[batch, 1, 15\], images uint8 \[batch, 1, 16, 16, 3\] and x0 \[batch, 4, 4\] → actions \[batch, 2, 4\] for pick-cube /);
      const onnxActor = await OnnxActor.open(exported.bytes, readOnnxPolicy(exported.bytes).spec);
      try {
        expect(maxAbsDifference(await onnxActor.act(obs, 3, createRng(1), images), a)).toBeLessThan(1e-4);
      } finally {
        await onnxActor.dispose();
      }
    } finally {
      first.dispose();
      second.dispose();
    }
  });

  it('hands each env\'s images of its next decision to the views that sample the policy beside the rollout', async () => {
    const config = trainConfig(['iterations=1', 'eval.every=0']);
    const { run, close } = await openRun(config, undefined, nodeRunPorts(config));
    try {
      expect(run.stackedImages(0)).toBeUndefined();
      await run.step();
      const bytes = SIZE * SIZE * 3;
      const images = run.env.images!();
      expect(images).toHaveLength(2 * bytes);
      expect(run.stackedImages(0)).toEqual(images.subarray(0, bytes));
      expect(run.stackedImages(1)).toEqual(images.subarray(bytes));
    } finally {
      await close();
    }
  });

  it('refuses an env of other cameras, image size or channels with one sentence', async () => {
    const base = trainConfig();
    const conflict = (override: string) => () => openCheckpoint(bcFile, base, [override]);
    expect(conflict('env.camera=wrist')).toThrow(ConfigError);
    expect(conflict('env.camera=wrist')).toThrow('env.camera=wrist contradicts the checkpoint, which has env.camera=front; drop the override or pretrain a new checkpoint');
    expect(conflict('env.image_size=32')).toThrow('env.image_size=32 contradicts the checkpoint, which has env.image_size=16; drop the override or pretrain a new checkpoint');
    expect(conflict('env.obs_type=rgbd')).toThrow('env.obs_type=rgbd contradicts the checkpoint, which has env.obs_type=rgb; drop the override or pretrain a new checkpoint');
    const file = parseCheckpointFile(bcFile);
    expect(() => decodeCheckpoint(file, { obsEncoder: 'image', image: { cameras: ['wrist'], size: SIZE, channels: 3 } }))
      .toThrow(new CheckpointError("checkpoint's policy sees front at 16×16 rgb, but this run's env gives wrist at 16×16 rgb; use env.camera=front env.image_size=16 env.obs_type=rgb"));
    expect(() => decodeCheckpoint(file, { obsEncoder: 'state' })).toThrow("checkpoint holds a MLP policy on camera images, but this run's env gives state observations (env.obs_type=state); use env.obs_type=rgb");
    // The env's cameras as the scene names them ('default' resolved) meet the policy's before training starts.
    const env = new InThreadBatchEnv(mj, { ...runEnvConfig(trainConfig(['env.camera=wrist']), 'train', false), numEnvs: 1 });
    try {
      expect(() => checkEnvImages(file.kind === 'gaussian' ? undefined! : file.architecture, env))
        .toThrow('the policy reads camera images of front at 16×16 rgb, but the env gives camera images of wrist at 16×16 rgb; set env.obs_type, env.camera and env.image_size to the policy\'s');
    } finally {
      await env.dispose();
    }
  });
});
