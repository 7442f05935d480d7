import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../envs/task-env';
import type { ReplayScenes } from '../render/replay-scenes';
import { episodeReplay } from './episode-replay';
import { EpisodeStore } from './episode-store';

const record: EpisodeRecord = { envIndex: 0, seed: 3, episodeReturn: 1, length: 2, success: true, nq: 1, mocapPos: [], qpos: new Float32Array(3) };

describe('episodeReplay', () => {
  it('poses a stored episode in its task\'s scene, and names an evicted one', () => {
    const store = new EpisodeStore();
    const [summary] = store.add({ task: 'reach', iteration: 1, train: [record] }).added;
    const asked: string[] = [];
    const scenes = {
      replay: (task: string, given: EpisodeRecord) => {
        asked.push(`${task} seed ${given.seed}`);
        return { visual: 'scene' as unknown, poses: 'poses' as unknown };
      },
    } as unknown as Pick<ReplayScenes, 'replay'>;
    expect(episodeReplay(store, scenes, summary.id)).toEqual({ summary, visual: 'scene', poses: 'poses' });
    expect(asked).toEqual(['reach seed 3']);
    expect(() => episodeReplay(store, scenes, 'train-9-9')).toThrow("episode 'train-9-9' is not in the store: it was evicted or the run was reset; list the episodes again");
  });
});
