import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../src/core/envs/task-env';
import { createRng } from '../../src/core/random';
import { EpisodeStore } from './episode-store';

function record(envIndex: number, success: boolean, episodeReturn = 0): EpisodeRecord {
  return { envIndex, seed: 100 + envIndex, episodeReturn, length: 10 + envIndex, success, nq: 2, goal: [0, 0, 0], qpos: new Float32Array(2 * (11 + envIndex)) };
}

describe('EpisodeStore', () => {
  it('summarizes each record with its source, task and iteration, and finds it by id', () => {
    const store = new EpisodeStore();
    const added = store.add({ task: 'lift', iteration: 3, train: [record(1, false, -4.5), record(0, true, 2)], eval: [record(0, true), record(1, false)] });
    expect(added.map((s) => s.source)).toEqual(['train', 'train', 'eval', 'eval']);
    expect(added[0]).toMatchObject({ task: 'lift', iteration: 3, envIndex: 1, seed: 101, episodeReturn: -4.5, length: 11, success: false });
    expect(new Set(added.map((s) => s.id)).size).toBe(4);
    expect(store.get(added[1].id)?.record.envIndex).toBe(0);
    expect(store.get('train-3-999')).toBeUndefined();
    expect(store.list().map((s) => s.id)).toEqual(added.map((s) => s.id));
  });

  it('keeps the newest training episodes and whole newest evaluations', () => {
    const store = new EpisodeStore({ trainEpisodes: 5, evaluations: 2 });
    const rng = createRng(7);
    const trainIds: string[] = [];
    const evalIterations: number[] = [];
    for (let iteration = 1; iteration <= 9; iteration++) {
      const trainCount = Math.floor(rng.uniform() * 4);
      const evaluates = iteration % 3 === 0;
      const added = store.add({
        task: 'reach', iteration,
        train: Array.from({ length: trainCount }, (_, envIndex) => record(envIndex, rng.uniform() < 0.5)),
        eval: evaluates ? [record(0, true), record(1, false), record(2, true)] : undefined,
      });
      trainIds.push(...added.filter((s) => s.source === 'train').map((s) => s.id));
      if (evaluates) evalIterations.push(iteration);
    }
    const listed = store.list();
    const listedTrain = listed.filter((s) => s.source === 'train').map((s) => s.id);
    expect(listedTrain).toEqual(trainIds.slice(-5));
    const listedEval = listed.filter((s) => s.source === 'eval');
    // Evaluations at iterations 3, 6, 9; the newest two stay, all three episodes each.
    expect(evalIterations).toEqual([3, 6, 9]);
    expect(listedEval.map((s) => s.iteration)).toEqual([6, 6, 6, 9, 9, 9]);
    expect(store.size).toBe(listed.length);
    for (const dropped of trainIds.slice(0, -5)) expect(store.get(dropped)).toBeUndefined();
    // Oldest first: iterations never decrease along the list.
    for (let index = 1; index < listed.length; index++) expect(listed[index].iteration).toBeGreaterThanOrEqual(listed[index - 1].iteration);
  });

  it('never reuses an id after clear', () => {
    const store = new EpisodeStore();
    const first = store.add({ task: 'lift', iteration: 1, train: [record(0, true)] });
    store.clear();
    expect(store.list()).toEqual([]);
    expect(store.get(first[0].id)).toBeUndefined();
    const second = store.add({ task: 'lift', iteration: 1, train: [record(0, true)] });
    expect(second[0].id).not.toBe(first[0].id);
  });

  it('rejects a negative or fractional limit', () => {
    expect(() => new EpisodeStore({ trainEpisodes: -1, evaluations: 2 })).toThrow(/trainEpisodes must be a non-negative integer, got -1/);
    expect(() => new EpisodeStore({ trainEpisodes: 3, evaluations: 1.5 })).toThrow(/evaluations/);
  });
});
