/** A stored episode as the page replays it: its scene and per-frame poses (DESIGN.md §7: the page never loads MuJoCo). */
import { TrainingError } from '../errors';
import type { ReplayScenes } from '../render/replay-scenes';
import type { EpisodeReplay } from '../../protocol/trainer-api';
import type { EpisodeStore } from './episode-store';

/** The scene and poses of stored episode `id`, posed by `scenes` (the host's MuJoCo, one compiled scene per task). */
export function episodeReplay(store: Pick<EpisodeStore, 'get'>, scenes: Pick<ReplayScenes, 'replay'>, id: string): EpisodeReplay {
  const stored = store.get(id);
  if (!stored) throw new TrainingError(`episode '${id}' is not in the store: it was evicted or the run was reset; list the episodes again`);
  const { visual, poses } = scenes.replay(stored.summary.task, stored.record);
  return { summary: stored.summary, visual, poses };
}
