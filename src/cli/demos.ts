/**
 * `npm run demos -- task=T episodes=N seed=S noise=x out=FILE`: runs the task's
 * scripted expert and writes a demonstration file (src/core/envs/demo-format.ts).
 * `npm run demos -- task=T policy=FILE.flowtune steps=N out=FILE`: the same from a Gaussian
 * policy's checkpoint, sampling its actions (DESIGN.md §14's "medium" dataset), N transitions
 * in whole episodes; std_scale=s samples μ + s·σ·ε instead of the policy's own σ.
 * `npm run demos -- import=FILE task=T out=FILE.demos [normalization=FILE.npz] [obs_keys=a,b,...] [filter=train]`:
 * another project's dataset (D4RL or robomimic HDF5, ReinFlow's/DPPO's train.npz) as demos of T
 * (src/core/datasets/), with one line on stderr saying what was read.
 * Prints progress on stderr and one JSON summary line on stdout, with the count of episodes the
 * physics ended by going unstable (the env's instability check, src/core/envs/task-env.ts).
 */
import { resolveTaskArgument } from './task-loading';
import { writeFileSync } from 'node:fs';
import { parseCliArgs, runCli, UsageError } from './cli-args';
import { applyOverrides, defaultConfig } from '../core/config';
import { collectPolicyDemos } from '../core/envs/policy-demos';
import { createRng } from '../core/random';
import { useNodeBackend } from './node-backend';
import { loadRunCheckpoint } from './run-setup';
import { loadMujocoNode } from './mujoco-node';
import { collectExpertDemos } from '../core/envs/expert-rollout';
import { demoMetadataFor, writeDemoFile } from '../core/envs/demo-format';
import { OBS_MODES, readsCameras } from '../core/envs/task-types';
import { parseCameraList } from '../core/envs/camera/camera-lookup';
import { DEFAULT_IMAGE_SIZE, MAX_IMAGE_SIZE, MIN_IMAGE_SIZE } from '../core/envs/camera/pinhole';
import { observationSpec } from '../core/envs/observation';
import { getTask } from '../core/envs/task-registry';
import { importDataset } from '../core/datasets/import-dataset';
import { readDatasetFiles } from './dataset-files';
import { writeFileDurable } from './durable-write';

const SPEC = {
  task: { kind: 'string', required: true, doc: 'task whose scripted expert makes the demos: a built-in name, or ./path/ to a task of your own' },
  episodes: { kind: 'int', min: 1, max: 100000, default: 100, doc: 'number of episodes' },
  seed: { kind: 'int', min: 0, max: 2 ** 30, default: 0, doc: 'episode e resets with seed + e' },
  noise: { kind: 'number', min: 0, max: 2, default: 0, doc: 'std of Gaussian noise on the expert actions' },
  obs: { kind: 'enum', values: OBS_MODES, default: 'state', doc: 'observation mode' },
  num_points: { kind: 'int', min: 1, max: 8192, default: 256, doc: 'points per point-cloud observation' },
  camera: { kind: 'string', default: 'default', doc: "with obs=depth_pointcloud, rgb or rgbd: the task's cameras, comma-separated (default: its first camera)" },
  image_size: { kind: 'int', min: MIN_IMAGE_SIZE, max: MAX_IMAGE_SIZE, default: DEFAULT_IMAGE_SIZE, doc: 'with obs=depth_pointcloud, rgb or rgbd: side of each camera image in pixels' },
  out: { kind: 'string', required: true, doc: 'output file (.demos)' },
  policy: { kind: 'string', default: '', doc: 'a Gaussian policy checkpoint (.flowtune) to sample the demos from instead of the scripted expert' },
  steps: { kind: 'int', min: 1, max: 100_000_000, default: 1, doc: 'with policy=: transitions to collect, in whole episodes' },
  envs: { kind: 'int', min: 1, max: 1024, default: 16, doc: 'with policy=: envs stepped side by side' },
  std_scale: { kind: 'number', min: 0, max: 10, default: 1, doc: "with policy=: multiplies the policy's action std when sampling (1: as trained; 0: its mean action)" },
  import: { kind: 'string', default: '', doc: 'a dataset to convert instead of recording: D4RL or robomimic .hdf5, or a ReinFlow/DPPO train.npz' },
  normalization: { kind: 'string', default: '', doc: 'with import= of a train.npz: its normalization.npz, when it is not beside it' },
  obs_keys: { kind: 'string', default: '', doc: "with import= of a robomimic file: the obs keys to concatenate, in order (e.g. object,robot0_eef_pos)" },
  filter: { kind: 'string', default: '', doc: 'with import= of a robomimic file: a filter key under mask/ (e.g. train) whose demos alone are read' },
} as const;

const EXPERT_ONLY = ['episodes', 'noise', 'obs', 'num_points', 'camera', 'image_size'] as const;
/** Keys that only observations from the task's cameras read (depth point clouds, camera images). */
const CAMERA_KEYS = ['camera', 'image_size'] as const;
const POLICY_ONLY = ['steps', 'envs', 'std_scale'] as const;
/** Keys that record demos, which an import does not. */
const RECORDING_KEYS = ['episodes', 'seed', 'noise', 'obs', 'num_points', 'camera', 'image_size', 'policy', 'steps', 'envs', 'std_scale'] as const;
const IMPORT_ONLY = ['normalization', 'obs_keys', 'filter'] as const;

/** The keys given on the command line, so a key that would do nothing is refused. */
function givenKeys(argv: readonly string[]): Set<string> {
  return new Set(argv.map((arg) => arg.replace(/^--/, '').split('=')[0]));
}

async function policyDemos(args: { task: string; policy: string; steps: number; envs: number; std_scale: number; seed: number; out: string }): Promise<void> {
  await useNodeBackend('wasm');
  const mj = await loadMujocoNode();
  const { policy, config } = loadRunCheckpoint(args.policy, applyOverrides(defaultConfig(), [`task=${args.task}`]), []);
  try {
    const sampler = policy.samplingActor?.(createRng(args.seed), args.std_scale);
    if (!sampler) throw new UsageError('policy', `policy= samples demos from a policy that draws one action per step; ${args.policy} holds a ${policy.kind} policy, which does not`);
    const progressEvery = Math.max(1, Math.floor(args.steps / 10));
    let nextReport = progressEvery;
    let returns = 0;
    let episodes = 0;
    const demos = await collectPolicyDemos(mj, {
      task: args.task, steps: args.steps, seed: args.seed, numEnvs: args.envs, act: sampler,
      onEpisode: (stored, episodeReturn) => {
        returns += episodeReturn;
        episodes++;
        if (stored >= nextReport) {
          console.error(`${stored}/${args.steps} transitions, ${episodes} episodes, mean return ${(returns / episodes).toFixed(1)}`);
          nextReport += progressEvery;
        }
      },
    });
    const task = getTask(args.task);
    const metadata = demoMetadataFor(demos, { seed: args.seed, noise: 0, obsSlices: observationSpec(task, 'state', 0).slices, maxEpisodeSteps: task.maxEpisodeSteps, controlMode: config.env.control_mode });
    const bytes = writeDemoFile(demos, metadata);
    writeFileSync(args.out, bytes);
    console.log(JSON.stringify({ task: args.task, policy: args.policy, episodes: metadata.episodes, steps: metadata.steps, mean_return: returns / episodes, std_scale: args.std_scale, seed: args.seed, out: args.out, bytes: bytes.length }));
  } finally {
    policy.dispose();
  }
}

/** Converts a dataset file to demos of the task and writes them. */
async function importDemos(args: { import: string; task: string; out: string; normalization: string; obs_keys: string; filter: string }): Promise<void> {
  const { files, normalizationPath } = readDatasetFiles(args.import, args.normalization);
  const obsKeys = args.obs_keys ? args.obs_keys.split(',').map((key) => key.trim()) : undefined;
  if (obsKeys?.some((key) => key === '')) throw new UsageError('obs_keys', `obs_keys must be a comma-separated list of names, got '${args.obs_keys}'`);
  const imported = await importDataset({ files, task: args.task, obsKeys, filter: args.filter || undefined });
  const bytes = writeDemoFile(imported.demos, imported.metadata);
  writeFileDurable(args.out, bytes);
  console.error(imported.summary);
  console.log(JSON.stringify({
    task: args.task, import: args.import, ...(normalizationPath ? { normalization: normalizationPath } : {}), layout: imported.layout,
    episodes: imported.metadata.episodes, steps: imported.metadata.steps, terminated: imported.terminated, truncated: imported.truncated,
    out: args.out, bytes: bytes.length,
  }));
}

async function main(): Promise<void> {
  const argv = await resolveTaskArgument(process.argv.slice(2));
  const args = parseCliArgs(argv, SPEC, { program: 'npm run demos --' });
  const given = givenKeys(argv);
  if (args.import) {
    const recording = RECORDING_KEYS.filter((key) => given.has(key));
    if (recording.length > 0) throw new UsageError(recording[0], `${recording.join(', ')} ${recording.length === 1 ? 'records' : 'record'} demos; with import= the dataset is converted as it is`);
    await importDemos(args);
    return;
  }
  const importOnly = IMPORT_ONLY.filter((key) => given.has(key));
  if (importOnly.length > 0) throw new UsageError(importOnly[0], `${importOnly.join(', ')} ${importOnly.length === 1 ? 'applies' : 'apply'} with import=FILE only`);
  const idle = (args.policy ? EXPERT_ONLY : POLICY_ONLY).filter((key) => given.has(key));
  if (idle.length > 0) {
    throw new UsageError(idle[0], args.policy
      ? `${idle.join(', ')} ${idle.length === 1 ? 'sets' : 'set'} the scripted expert's demos; with policy= the checkpoint's Gaussian policy samples them and steps= sets their size`
      : `${idle.join(', ')} ${idle.length === 1 ? 'applies' : 'apply'} with policy=FILE.flowtune only; the scripted expert's demos are sized by episodes= and noised by noise=`);
  }
  if (args.policy) {
    await policyDemos(args);
    return;
  }
  const cameraKeys = CAMERA_KEYS.filter((key) => given.has(key));
  if (cameraKeys.length > 0 && !readsCameras(args.obs)) {
    throw new UsageError(cameraKeys[0], `${cameraKeys.join(', ')} ${cameraKeys.length === 1 ? 'applies' : 'apply'} with obs=depth_pointcloud, rgb or rgbd only, which read the task's cameras`);
  }
  const cameras = readsCameras(args.obs) ? { camera: args.camera, imageSize: args.image_size } : undefined;
  const image = cameras ? { cameras: parseCameraList(cameras.camera), imageSize: cameras.imageSize } : {};
  const mj = await loadMujocoNode();
  let successes = 0;
  let unstableEpisodes = 0;
  const progressEvery = Math.max(1, Math.floor(args.episodes / 10));
  const demos = collectExpertDemos(mj, {
    task: args.task, episodes: args.episodes, seed: args.seed, noise: args.noise, obsMode: args.obs, numPoints: args.num_points,
    ...image,
    onEpisode: (episodeIndex, success, unstable) => {
      if (success) successes++;
      if (unstable) unstableEpisodes++;
      if ((episodeIndex + 1) % progressEvery === 0) console.error(`episode ${episodeIndex + 1}/${args.episodes}: success ${successes}/${episodeIndex + 1}`);
    },
  });
  const task = getTask(args.task);
  const metadata = demoMetadataFor(demos, {
    seed: args.seed, noise: args.noise, obsSlices: observationSpec(task, args.obs, args.num_points, image).slices, maxEpisodeSteps: task.maxEpisodeSteps,
    ...(cameras ? { cameras } : {}),
  });
  const bytes = writeDemoFile(demos, metadata);
  writeFileSync(args.out, bytes);
  console.log(JSON.stringify({
    task: args.task, episodes: metadata.episodes, steps: metadata.steps, success_rate: metadata.success_rate,
    noise: args.noise, seed: args.seed, out: args.out, bytes: bytes.length, unstable_episodes: unstableEpisodes,
  }));
}

void runCli(main);
