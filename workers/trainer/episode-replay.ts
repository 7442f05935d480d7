/**
 * Replays for the page, computed in the trainer worker so the main thread never
 * loads MuJoCo (DESIGN.md §7). The worker loads its own MuJoCo module on the
 * first replay and keeps it, with one compiled scene per task.
 */
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url';
import { TrainingError } from '../../src/core/errors';
import type { Mujoco } from '../../src/core/envs/mujoco-types';
import { ReplayScenes } from '../../src/core/render/replay-scenes';
import type { EpisodeReplay } from '../../src/protocol/trainer-api';
import type { EpisodeStore } from './episode-store';

let scenes: Promise<ReplayScenes> | undefined;

/** The worker's MuJoCo scenes, loaded on first use. */
export function replayScenes(): Promise<ReplayScenes> {
  scenes ??= import('@mujoco/mujoco').then(async ({ default: loadMujoco }) => {
    const mj: Mujoco = await loadMujoco({ locateFile: (path: string) => (path.endsWith('.wasm') ? wasmUrl : path) });
    return new ReplayScenes(mj);
  });
  return scenes;
}

/** The scene and per-frame poses of stored episode `id`. */
export async function episodeReplay(store: EpisodeStore, id: string): Promise<EpisodeReplay> {
  const stored = store.get(id);
  if (!stored) throw new TrainingError(`episode '${id}' is not in the store: it was evicted or the run was reset; list the episodes again`);
  const { visual, poses } = (await replayScenes()).replay(stored.summary.task, stored.record);
  return { summary: stored.summary, visual, poses };
}
