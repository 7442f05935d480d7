/**
 * A diffusion policy on camera images through the recipe (DESIGN.md §16, §17, §19), as image-run.test.ts takes a flow
 * policy through it: BC of the ε net from image demos, one DPPO iteration from that checkpoint and from a fresh policy,
 * evaluation on image envs, exact resume (the update's image shifts included), the ratio at 1 at lr 0, and the exports
 * that cannot hold an image policy refusing in one sentence.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { nodeRunPorts } from '../../cli/node-run-ports';
import { RunFolderStore } from '../../cli/run-folder-store';
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import { decodeFileContents, parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { dppoExport } from '../checkpoint/peers/dppo-export';
import { applyOverrides, defaultConfig, validateConfig, type RunConfig } from '../config';
import { pretrainConfigForDemos } from '../config/pretrain-demos';
import { PRESETS } from '../config/presets';
import { injectCameraImageSource } from '../envs/camera/image-source';
import { StatePaintedImageSource } from '../envs/camera/state-painted-image-source';
import { demoMetadataFor } from '../envs/demo-format';
import { collectExpertDemos } from '../envs/expert-rollout';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { observationSpec } from '../envs/observation';
import { getTask } from '../envs/task-registry';
import { CheckpointError } from '../errors';
import { createRng } from '../random';
import { DIFFUSION_IMAGE_ONNX_REFUSAL } from '../diffusion/diffusion-family';
import { loadPolicy } from './families';
import { openCheckpoint } from './open-checkpoint';
import { openRun } from './open-run';
import { runPretrainStage, type StageDemos } from './pretrain-stage';
import { trainLoop } from './run-loop';

let mj: Mujoco;
let demos: StageDemos;
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-diffusion-image-run-'));
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

/**
 * What `npm run train -- preset=dppo task=pick-cube env.obs_type=rgb ...` would run with, at tiny sizes: T = 4, the last
 * 2 steps fine-tuned; 2 envs × 3 decisions × 2 steps = 12 denoising-step samples per update, 3 minibatches of 4.
 */
const TRAIN_ARGS = [
  'task=pick-cube', 'env.obs_type=rgb', 'env.camera=front', `env.image_size=${SIZE}`, 'policy.n_obs_steps=1', 'policy.cnn_channels=4,4',
  'policy.image_features=8', 'policy.hidden=16,16', 'policy.value_hidden=8', 'policy.horizon=4', 'policy.n_action_steps=2', 'policy.denoise_steps=4',
  'dppo.ft_denoising_steps=2', 'num_envs=2', 'env.workers=1', 'env.steps_per_iteration=3', 'env.max_episode_steps=5', 'ppo.minibatch_size=4', 'ppo.epochs=1',
  'actor_lr=1e-3', 'eval_episodes=2', 'eval.every=1', 'seed=4', 'total_env_steps=0', 'iterations=1',
];
const trainConfig = (extra: string[] = []) => validateConfig(applyOverrides(defaultConfig(), [...PRESETS.dppo.overrides, ...TRAIN_ARGS, ...extra]));

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

describe('a diffusion policy on camera images through BC, DPPO, evaluation and checkpoints (stand-in camera source)', () => {
  let bcFile: CheckpointFiles;

  it('learns its ε net by BC from image demos, evaluating on image envs, and records its encoder in the checkpoint', async () => {
    const config = pretrainConfigForDemos(trainConfig(['pretrain.steps=3', 'pretrain.batch_size=8']), demos.metadata);
    const result = await runPretrainStage({ config, demos, ports: { openEnv: async (envConfig) => new InThreadBatchEnv(mj, envConfig), clock: () => 0 } });
    expect(result.finalEval?.episodes).toBe(2);
    const { architecture, shape_meta: shapeMeta } = result.contents.metadata;
    expect(architecture).toMatchObject({ kind: 'diffusion', prediction: 'epsilon', obsEncoder: 'image', obsDim: 15, image: { cameras: ['front'], size: SIZE, channels: 3, convChannels: [4, 4], featureDim: 8 } });
    expect(shapeMeta.obs).toEqual({ image: { shape: [1, SIZE, SIZE, 3] }, state: { shape: [1, 15] } });
    bcFile = { kind: 'flowtune', name: 'pick-cube-rgb-diffusion-bc.flowtune', bytes: encodeFlowtune(result.contents) };
  });

  it('fine-tunes the BC policy for one DPPO iteration through the command line\'s ports and run folder', async () => {
    const fromBc = await train(trainConfig(), path.join(dir, 'from-bc'), bcFile);
    expect(fromBc.history).toHaveLength(1);
    for (const key of ['losses/policy', 'losses/value', 'losses/approx_kl', 'eval/episode_return'] as const) expect(Number.isFinite(fromBc.history[0][key]), key).toBe(true);
    expect(fromBc.history[0]['losses/nonfinite_skips']).toBe(0);
  });

  it('fine-tunes a fresh UNet1D ε net on the same camera with DPPO\'s BC term, whose base net reads the minibatch\'s images too', async () => {
    const fresh = await train(trainConfig(['policy.velocity_net=unet1d', 'policy.unet_dims=8,16', 'policy.unet_groups=4', 'ppo.bc_coef=0.1']), path.join(dir, 'fresh'));
    expect(fresh.history[0]['progress/iteration']).toBe(1);
    for (const key of ['losses/policy', 'losses/bc', 'eval/episode_return'] as const) expect(Number.isFinite(fresh.history[0][key]), key).toBe(true);
  });

  it('recomputes the rollout\'s stored log-probs from the same images: the ratio is 1 at lr 0 without the shift', async () => {
    const { history } = await train(trainConfig(['actor_lr=0', 'critic_lr=0', 'policy.image_shift=0']), path.join(dir, 'still'), bcFile);
    expect(Math.abs(Number(history[0]['losses/ratio_mean']) - 1)).toBeLessThan(1e-5);
    expect(Math.abs(Number(history[0]['losses/ratio_max']) - 1)).toBeLessThan(1e-5);
    expect(history[0]['losses/clip_fraction']).toBe(0);
  });

  it('resumes exactly from its saved checkpoint, reloads with identical actions on the same observation and images, and trains its encoder', async () => {
    const config = trainConfig(['iterations=2', 'checkpoint_every=1']);
    expect(config.policy.image_shift).toBeGreaterThan(0);
    const straight = await train(config, path.join(dir, 'straight'), bcFile);
    // The iteration-1 checkpoint holds the envs' images with their state, the base net and the reward scaling.
    const resumed = await train(config, path.join(dir, 'resumed'), fileAt(straight.store.checkpointPath('iter-000001.flowtune')));
    expect(resumed.notes).toEqual([]);
    expect(resumed.history).toEqual(straight.history);
    const fresh = await train(config, path.join(dir, 'fresh-straight'));
    const freshResumed = await train(config, path.join(dir, 'fresh-resumed'), fileAt(fresh.store.checkpointPath('iter-000001.flowtune')));
    expect(freshResumed.history).toEqual(fresh.history);

    const files = fileAt(straight.store.checkpointPath('final.flowtune'));
    // The update reached the camera encoder: the fine-tuned net's differs from the base net's.
    const decoded = decodeFileContents(parseCheckpointFile(files));
    const encoderNames = [...decoded.tensors.keys()].filter((name) => name.startsWith('encoder.cameras.'));
    expect(encoderNames.length).toBeGreaterThan(0);
    expect(encoderNames.some((name) => decoded.tensors.get(name)!.data.some((value, index) => value !== decoded.reference!.get(name)!.data[index]))).toBe(true);

    const opened = openCheckpoint(files, config, []);
    expect(opened.checkpoint.kind).toBe('diffusion');
    const first = loadPolicy(opened.checkpoint, opened.config);
    const second = loadPolicy(openCheckpoint(fileAt(straight.store.checkpointPath('final.flowtune')), config, []).checkpoint, opened.config);
    try {
      const rng = createRng(6);
      const obs = Float32Array.from({ length: 3 * 15 }, () => rng.normal());
      const images = Uint8Array.from({ length: 3 * SIZE * SIZE * 3 }, () => rng.int(256));
      const a = await first.evalActor(opened.config).act(obs, 3, createRng(1), images);
      const b = await second.evalActor(opened.config).act(obs, 3, createRng(1), images);
      expect(new Uint32Array(b.buffer)).toEqual(new Uint32Array(a.buffer));
      expect(await second.probe(opened.config, 7)).toEqual(await first.probe(opened.config, 7));
      // The images matter: other pixels give other actions.
      const other = await first.evalActor(opened.config).act(obs, 3, createRng(1), images.map((value) => 255 - value));
      expect(other).not.toEqual(a);
      await expect(first.exportOnnx(opened.checkpoint.metadata)).rejects.toThrow(DIFFUSION_IMAGE_ONNX_REFUSAL);
    } finally {
      first.dispose();
      second.dispose();
    }
    const file = parseCheckpointFile(files);
    if (file.kind !== 'diffusion') throw new Error('expected a diffusion checkpoint');
    expect(() => dppoExport({ name: 'final.flowtune', architecture: file.architecture, tensors: decoded.tensors, metadata: decoded.metadata, reference: decoded.reference }))
      .toThrow(new CheckpointError("format=dppo writes DPPO's state-input DiffusionMLP, and final.flowtune reads camera images through our CNN encoder, which DPPO's image policies (VisionDiffusionMLP on a ViT encoder) cannot hold; export it with format=tfjs"));
  }, 60_000);
});
