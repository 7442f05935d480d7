import { describe, expect, it } from 'vitest';
import type { EpisodeSummary } from '../../protocol/trainer-api';
import { createRng } from '../../core/random';
import { episodeCaption, galleryRows, mergeEpisodes } from './gallery-rows';

let sequence = 0;
function summary(source: 'train' | 'eval', iteration: number, success: boolean): EpisodeSummary {
  const id = `${source}-${iteration}-${sequence++}`;
  return { id, source, task: 'pick-cube', iteration, envIndex: 0, seed: 1, episodeReturn: -3.25, length: 40, success };
}

describe('gallery rows', () => {
  it('merges without duplicates and keeps the newest training episodes and eval iterations', () => {
    const rng = createRng(3);
    let kept: EpisodeSummary[] = [];
    const allTrain: EpisodeSummary[] = [];
    for (let iteration = 1; iteration <= 12; iteration++) {
      const batch = Array.from({ length: 1 + Math.floor(rng.uniform() * 3) }, () => summary('train', iteration, rng.uniform() < 0.3));
      allTrain.push(...batch);
      if (iteration % 2 === 0) batch.push(summary('eval', iteration, true), summary('eval', iteration, false));
      kept = mergeEpisodes(kept, batch, { trainEpisodes: 4, evaluations: 3 });
      // A repeated event changes nothing.
      expect(mergeEpisodes(kept, batch, { trainEpisodes: 4, evaluations: 3 })).toEqual(kept);
    }
    expect(kept.filter((s) => s.source === 'train').map((s) => s.id)).toEqual(allTrain.slice(-4).map((s) => s.id));
    // Eval iterations 2, 4, ..., 12: the newest three are 8, 10 and 12, two episodes each.
    expect(kept.filter((s) => s.source === 'eval').map((s) => s.iteration)).toEqual([8, 8, 10, 10, 12, 12]);
  });

  it('forgets the ids the worker dropped, from the kept list and from the incoming ones', () => {
    const first = [summary('train', 1, false), summary('train', 1, true), summary('eval', 1, true)];
    const kept = mergeEpisodes([], first);
    const next = [summary('train', 2, true)];
    const after = mergeEpisodes(kept, next, undefined, [first[0].id, first[2].id]);
    expect(after.map((s) => s.id)).toEqual([first[1].id, next[0].id]);
    expect(mergeEpisodes([], [...first, ...next], undefined, [first[0].id]).map((s) => s.id)).toEqual([first[1].id, first[2].id, next[0].id]);
  });

  it('shows newest first and filters on success', () => {
    const episodes = [summary('train', 1, false), summary('eval', 1, true), summary('train', 2, true), summary('train', 2, false)];
    expect(galleryRows(episodes, 'all').map((s) => s.id)).toEqual([...episodes].reverse().map((s) => s.id));
    expect(galleryRows(episodes, 'success').map((s) => s.id)).toEqual([episodes[2].id, episodes[1].id]);
    expect(galleryRows(episodes, 'failure').map((s) => s.id)).toEqual([episodes[3].id, episodes[0].id]);
  });

  it('captions task, iteration, return and result', () => {
    expect(episodeCaption(summary('eval', 7, true))).toBe('pick-cube · iteration 7 · return -3.25 · success');
    expect(episodeCaption(summary('train', 2, false))).toMatch(/failure$/);
    // A task without a success rule has no result to state.
    expect(episodeCaption(summary('eval', 7, false), false)).toBe('pick-cube · iteration 7 · return -3.25');
  });
});
