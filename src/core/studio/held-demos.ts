/**
 * The demonstrations the studio's demos flow holds (DESIGN.md §12, journey 7): recorded in sharded
 * envs (the studio's env workers), or read from a dropped `.demos` file and checked with the one
 * demos-fit check before they replace anything, against the env stage 1 would train them in.
 */
import { pretrainConfigForDemos } from '../config/pretrain-demos';
import type { RunConfig } from '../config/run-config';
import { demoMetadataFor, readDemoFile, type DemoMetadata } from '../envs/demo-format';
import type { Demonstrations } from '../envs/expert-rollout';
import { getTask } from '../envs/task-registry';
import { hasPointCloud } from '../envs/task-types';
import type { ShardedVectorEnv } from '../envs/sharded-vector-env';
import type { VectorEnvConfig } from '../envs/vector-env-config';
import { DemosError } from '../errors';
import { assertDemosFit } from '../offline/demos-fit';
import type { StageDemos } from '../run/pretrain-stage';
import { configCameras, configObservationSpec } from '../run/run-env-config';
import { parseCameraList } from '../envs/camera/camera-lookup';
import type { DatasetDrop, DemoSetSummary, RecipeFile, RecordDemosRequest } from '../../protocol/trainer-api';
import { importDataset } from '../datasets/import-dataset';

export type OpenShardedEnv = (config: VectorEnvConfig) => Promise<ShardedVectorEnv>;

export interface HeldDemos {
  demos: Demonstrations;
  metadata: DemoMetadata;
  summary: DemoSetSummary;
}

function summaryOf(source: string, demos: Demonstrations, metadata: DemoMetadata, noise?: number): DemoSetSummary {
  return {
    source, task: demos.task, obsType: demos.obsMode, ...(demos.obsMode !== 'state' ? { numPoints: (metadata.obs_slices.find((slice) => slice.name === 'points')?.dim ?? 0) / 3 } : {}),
    episodes: metadata.episodes, steps: metadata.steps, successes: demos.success.reduce((sum, flag) => sum + flag, 0), ...(noise !== undefined ? { noise } : {}),
  };
}

/**
 * Reads and checks a `.demos` file completely; throws DemosError naming the file. The demos decide
 * stage 1's observation (pretrainConfigForDemos), so they are checked in the env of that config.
 */
export function readDemosUpload(file: RecipeFile, config: RunConfig): HeldDemos {
  let read: { demos: Demonstrations; metadata: DemoMetadata };
  try {
    read = readDemoFile(file.bytes);
  } catch (error) {
    throw new DemosError(`${file.name} is not a valid .demos file: ${(error as Error).message}`);
  }
  assertDemosFit(read.metadata, pretrainConfigForDemos(config, read.metadata), file.name);
  if (read.metadata.episodes === 0) throw new DemosError(`${file.name} holds no episodes`);
  return { ...read, summary: summaryOf(file.name, read.demos, read.metadata, read.metadata.noise) };
}

/**
 * Converts a dropped dataset (D4RL, robomimic, ReinFlow/DPPO train.npz with its normalization.npz)
 * for the config's task and checks it as a dropped `.demos` is; throws DemosError, one sentence.
 * Its `line` says what was read.
 */
export async function importDatasetUpload(drop: DatasetDrop, config: RunConfig): Promise<HeldDemos & { line: string }> {
  const imported = await importDataset({ files: drop.files, task: config.task, obsKeys: drop.obsKeys, filter: drop.filter });
  assertDemosFit(imported.metadata, pretrainConfigForDemos(config, imported.metadata), imported.source);
  const { demos, metadata } = imported;
  return { demos, metadata, summary: summaryOf(imported.source, demos, metadata), line: imported.summary };
}

/** Where and how wide the expert records: sharded envs, one single-env shard per core but one. */
export interface RecordingEnvs {
  openEnv: OpenShardedEnv;
  /** The host's hardware threads. */
  cores: number;
}

/**
 * Records the scripted expert's episodes in single-env shards, one per worker, each taking the
 * next few episodes as it frees up; undefined when `shouldStop` cancelled it.
 */
export async function recordDemos(
  config: RunConfig,
  request: RecordDemosRequest,
  { openEnv, cores }: RecordingEnvs,
  progress: { shouldStop: () => boolean; onProgress: (episodes: number, successes: number) => void },
): Promise<HeldDemos | undefined> {
  const task = getTask(config.task);
  const numPoints = hasPointCloud(config.env.obs_type) ? config.env.num_points : undefined;
  const cameras = configCameras(config);
  const workers = Math.max(1, Math.min(request.episodes, cores - 1));
  // An added task's env workers import its module, as a run's do.
  const taskModule = task.module ? { taskModule: task.module } : {};
  const env = await openEnv({ task: config.task, ...taskModule, numEnvs: workers, obsMode: config.env.obs_type, numPoints, ...(cameras ? { cameras: parseCameraList(cameras.camera), imageSize: cameras.imageSize } : {}), recordEpisodes: false });
  try {
    const seeds = Array.from({ length: request.episodes }, (_, episode) => request.seed + episode);
    const demos = await env.recordExpertDemos({ seeds, noise: request.noise, episodesPerRequest: 2, ...progress });
    if (!demos) return undefined;
    const metadata = demoMetadataFor(demos, { seed: request.seed, noise: request.noise, obsSlices: configObservationSpec(config).slices, maxEpisodeSteps: task.maxEpisodeSteps, ...(cameras ? { cameras } : {}) });
    return { demos, metadata, summary: summaryOf('recorded', demos, metadata, request.noise) };
  } finally {
    await env.dispose();
  }
}

/** Held demos as a stage takes them; refusals name them "the held demos". */
export function stageDemos(held: HeldDemos): StageDemos {
  return { demos: held.demos, metadata: held.metadata, source: 'the held demos' };
}
