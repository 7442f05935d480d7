/**
 * Replays for the page, computed in the trainer worker so the main thread never
 * loads MuJoCo (DESIGN.md §7), with the worker's own MuJoCo module and one compiled
 * scene per task.
 */
import { TrainingError } from '../../src/core/errors';
import { ReplayScenes } from '../../src/core/render/replay-scenes';
import type { EpisodeReplay } from '../../src/protocol/trainer-api';
import type { EpisodeStore } from './episode-store';
import { trainerMujoco } from './trainer-mujoco';

let scenes: Promise<ReplayScenes> | undefined;

/** The worker's MuJoCo scenes, loaded on first use. */
export function replayScenes(): Promise<ReplayScenes> {
  scenes ??= trainerMujoco().then((mj) => new ReplayScenes(mj));
  return scenes;
}

/** The scene and per-frame poses of stored episode `id`. */
export async function episodeReplay(store: EpisodeStore, id: string): Promise<EpisodeReplay> {
  const stored = store.get(id);
  if (!stored) throw new TrainingError(`episode '${id}' is not in the store: it was evicted or the run was reset; list the episodes again`);
  const { visual, poses } = (await replayScenes()).replay(stored.summary.task, stored.record);
  return { summary: stored.summary, visual, poses };
}
