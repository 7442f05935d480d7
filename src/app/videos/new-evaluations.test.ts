import { describe, expect, it } from 'vitest';
import type { EpisodeSummary } from '../../protocol/trainer-api';
import { freshEvaluations } from './new-evaluations';

const episode = (source: 'train' | 'eval', iteration: number, envIndex: number): EpisodeSummary => ({
  id: `${source}-${iteration}-${envIndex}`, source, task: 'pick-cube', iteration, envIndex, seed: envIndex, episodeReturn: 0, length: 10, success: false,
});

describe('freshEvaluations', () => {
  it('groups unhandled eval episodes by iteration, oldest evaluation first', () => {
    const episodes = [episode('train', 3, 0), episode('eval', 6, 1), episode('eval', 3, 0), episode('eval', 6, 0), episode('train', 6, 2)];
    const fresh = freshEvaluations(episodes, new Set());
    expect([...fresh.keys()]).toEqual([3, 6]);
    expect(fresh.get(6)!.map((summary) => summary.id)).toEqual(['eval-6-1', 'eval-6-0']);
    expect(fresh.get(3)!.map((summary) => summary.id)).toEqual(['eval-3-0']);
  });

  it('skips episodes already handled and training episodes', () => {
    const episodes = [episode('eval', 3, 0), episode('eval', 3, 1), episode('train', 4, 0)];
    expect(freshEvaluations(episodes, new Set(['eval-3-0', 'eval-3-1'])).size).toBe(0);
    const partly = freshEvaluations(episodes, new Set(['eval-3-0']));
    expect(partly.get(3)!.map((summary) => summary.id)).toEqual(['eval-3-1']);
  });
});
