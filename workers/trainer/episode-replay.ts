/**
 * Replays for the page, computed in the trainer worker so the main thread never loads MuJoCo
 * (DESIGN.md §7), with the worker's own MuJoCo module and one compiled scene per task.
 */
import { ReplayScenes } from '../../src/core/render/replay-scenes';
import { episodeReplay as replayOf } from '../../src/core/studio/episode-replay';
import type { EpisodeStore } from '../../src/core/studio/episode-store';
import type { EpisodeReplay } from '../../src/protocol/trainer-api';
import { trainerMujoco } from './trainer-mujoco';

let scenes: Promise<ReplayScenes> | undefined;

/** The worker's MuJoCo scenes, loaded on first use. */
export function replayScenes(): Promise<ReplayScenes> {
  scenes ??= trainerMujoco().then((mj) => new ReplayScenes(mj));
  return scenes;
}

/** The scene and per-frame poses of stored episode `id`. */
export async function episodeReplay(store: EpisodeStore, id: string): Promise<EpisodeReplay> {
  return replayOf(store, await replayScenes(), id);
}
