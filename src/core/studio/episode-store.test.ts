import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import type { EvalSummary } from '../rl/evaluate';
import type { EpisodeRecord } from '../envs/task-env';
import { createRng } from '../random';
import { DEFAULT_EPISODE_LIMITS, EpisodeStore, recordedBytes } from './episode-store';

function record(envIndex: number, success: boolean, episodeReturn = 0): EpisodeRecord {
  return { envIndex, seed: 100 + envIndex, episodeReturn, length: 10 + envIndex, success, nq: 2, mocapPos: [], qpos: new Float32Array(2 * (11 + envIndex)) };
}

describe('EpisodeStore', () => {
  it('summarizes each record with its source, task and iteration, and finds it by id', () => {
    const store = new EpisodeStore();
    const { added, dropped } = store.add({ task: 'lift', iteration: 3, train: [record(1, false, -4.5), record(0, true, 2)], eval: [record(0, true), record(1, false)] });
    expect(dropped).toEqual([]);
    expect(added.map((s) => s.source)).toEqual(['train', 'train', 'eval', 'eval']);
    expect(added[0]).toMatchObject({ task: 'lift', iteration: 3, envIndex: 1, seed: 101, episodeReturn: -4.5, length: 11, success: false });
    expect(new Set(added.map((s) => s.id)).size).toBe(4);
    expect(store.get(added[1].id)?.record.envIndex).toBe(0);
    expect(store.get('train-3-999')).toBeUndefined();
    expect(store.list().map((s) => s.id)).toEqual(added.map((s) => s.id));
    expect(added[0].obsType).toBeUndefined();
  });

  it('takes a run\'s training episodes, and its eval episodes only when the iteration\'s record has an eval return', () => {
    const store = new EpisodeStore();
    const config = { ...defaultConfig(), task: 'reach' as const };
    const run = { config, iteration: 4, lastEpisodes: [record(0, true)], lastEval: { records: [record(1, false), record(2, true)] } as unknown as EvalSummary };
    expect(store.addIteration(run, { 'progress/iteration': 4 }).added.map((s) => s.source)).toEqual(['train']);
    const evaluated = store.addIteration(run, { 'progress/iteration': 4, 'eval/episode_return': -1 }).added;
    expect(evaluated.map((s) => `${s.source}/${s.envIndex}/${s.iteration}/${s.task}`)).toEqual(['train/0/4/reach', 'eval/1/4/reach', 'eval/2/4/reach']);
  });

  it('marks the episodes of a point-cloud policy', () => {
    const store = new EpisodeStore();
    const { added } = store.add({ task: 'pick-cube', iteration: 1, train: [record(0, true)], eval: [record(1, false)], obsType: 'pointcloud' });
    expect(added.map((s) => s.obsType)).toEqual(['pointcloud', 'pointcloud']);
  });

  it('keeps the newest training episodes and whole newest evaluations', () => {
    const store = new EpisodeStore({ trainEpisodes: 5, evaluations: 2, recordedBytes: DEFAULT_EPISODE_LIMITS.recordedBytes });
    const rng = createRng(7);
    const trainIds: string[] = [];
    const evalIterations: number[] = [];
    for (let iteration = 1; iteration <= 9; iteration++) {
      const trainCount = Math.floor(rng.uniform() * 4);
      const evaluates = iteration % 3 === 0;
      const { added } = store.add({
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
    const first = store.add({ task: 'lift', iteration: 1, train: [record(0, true)] }).added;
    store.clear();
    expect(store.list()).toEqual([]);
    expect(store.storedBytes).toBe(0);
    expect(store.get(first[0].id)).toBeUndefined();
    const second = store.add({ task: 'lift', iteration: 1, train: [record(0, true)] }).added;
    expect(second[0].id).not.toBe(first[0].id);
  });

  it('rejects a negative or fractional limit', () => {
    expect(() => new EpisodeStore({ trainEpisodes: -1, evaluations: 2, recordedBytes: 100 })).toThrow(/trainEpisodes must be a non-negative integer, got -1/);
    expect(() => new EpisodeStore({ trainEpisodes: 3, evaluations: 1.5, recordedBytes: 100 })).toThrow(/evaluations/);
    expect(() => new EpisodeStore({ trainEpisodes: 3, evaluations: 1, recordedBytes: -8 })).toThrow(/recordedBytes must be a non-negative integer, got -8/);
  });

  describe('byte budget', () => {
    /** A made-up point-cloud-like record: `frames` observation rows of `frameValues` floats, nq 2. */
    function heavy(envIndex: number, frames: number, frameValues: number): EpisodeRecord {
      return { ...record(envIndex, false), length: frames - 1, qpos: new Float32Array(2 * frames), obs: new Float32Array(frames * frameValues) };
    }

    it('counts the observation and qpos bytes of each record', () => {
      // 5 frames: qpos 5 × 2 × 4 B = 40 B, obs 5 × 10 × 4 B = 200 B.
      expect(recordedBytes(heavy(0, 5, 10))).toBe(240);
      expect(recordedBytes(record(0, true))).toBe(2 * 11 * 4);
      const store = new EpisodeStore();
      store.add({ task: 'pick-cube', iteration: 1, train: [heavy(0, 5, 10), heavy(1, 5, 10)], eval: [heavy(0, 5, 10)] });
      expect(store.storedBytes).toBe(720);
    });

    it('evicts the oldest training episodes first, then the oldest evaluations, and reports earlier ids it dropped', () => {
      // Each record is 240 B; the budget holds 5 of them.
      const store = new EpisodeStore({ trainEpisodes: 100, evaluations: 100, recordedBytes: 5 * 240 });
      const one = store.add({ task: 'pick-cube', iteration: 1, train: [heavy(0, 5, 10), heavy(1, 5, 10)], eval: [heavy(0, 5, 10), heavy(1, 5, 10)] });
      expect(one.dropped).toEqual([]);
      // Six records now: the oldest training episode goes.
      const two = store.add({ task: 'pick-cube', iteration: 2, train: [heavy(2, 5, 10), heavy(3, 5, 10)] });
      expect(two.dropped).toEqual([one.added[0].id]);
      expect(two.added.map((s) => s.iteration)).toEqual([2, 2]);
      expect(store.storedBytes).toBe(5 * 240);
      // An evaluation of two (seven records): two training episodes go, though the evaluation from iteration 1 is older.
      const three = store.add({ task: 'pick-cube', iteration: 3, train: [], eval: [heavy(0, 5, 10), heavy(1, 5, 10)] });
      expect(three.dropped).toEqual([one.added[1].id, two.added[0].id]);
      expect(store.list().map((s) => s.id)).toEqual([one.added[2].id, one.added[3].id, two.added[1].id, ...three.added.map((s) => s.id)]);
      // Three more evaluation episodes (eight records): the last training episode, then the whole oldest evaluation.
      const four = store.add({ task: 'pick-cube', iteration: 4, train: [], eval: [heavy(0, 5, 10), heavy(1, 5, 10), heavy(2, 5, 10)] });
      expect(four.dropped).toEqual([two.added[1].id, one.added[2].id, one.added[3].id]);
      expect(store.list().map((s) => s.iteration)).toEqual([3, 3, 4, 4, 4]);
      expect(store.storedBytes).toBeLessThanOrEqual(5 * 240);
      for (const id of [...three.dropped, ...four.dropped]) expect(store.get(id)).toBeUndefined();
    });

    it('never announces an episode it could not keep', () => {
      // Budget for one record: of a batch of three training episodes only the newest stays.
      const store = new EpisodeStore({ trainEpisodes: 100, evaluations: 100, recordedBytes: 240 });
      const { added, dropped } = store.add({ task: 'pick-cube', iteration: 1, train: [heavy(0, 5, 10), heavy(1, 5, 10), heavy(2, 5, 10)] });
      expect(added.map((s) => s.envIndex)).toEqual([2]);
      expect(dropped).toEqual([]);
      expect(store.list()).toEqual(added);
    });

    it('keeps about 400 pick-cube point-cloud episodes of 128 points under the default budget', () => {
      // pick-cube: 101 frames of 128 × 3 points + 12 proprioception + 3 goal = 399 values, nq 16.
      const frames = 101;
      const episode = (): EpisodeRecord => ({ ...record(0, true), length: frames - 1, qpos: new Float32Array(16 * frames), obs: new Float32Array(frames * 399) });
      expect(recordedBytes(episode())).toBe(101 * 399 * 4 + 101 * 16 * 4);
      const store = new EpisodeStore({ ...DEFAULT_EPISODE_LIMITS, trainEpisodes: 10_000 });
      for (let iteration = 1; iteration <= 50; iteration++) store.add({ task: 'pick-cube', iteration, train: Array.from({ length: 10 }, episode) });
      expect(store.storedBytes).toBeLessThanOrEqual(DEFAULT_EPISODE_LIMITS.recordedBytes);
      expect(store.size).toBe(Math.floor(DEFAULT_EPISODE_LIMITS.recordedBytes / recordedBytes(episode())));
    });
  });
});
