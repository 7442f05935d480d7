import { describe, expect, it } from 'vitest';
import { applyOverrides } from '../config/overrides';
import { defaultConfig } from '../config/access';
import { CONFIG_FIELDS } from '../config/fields';
import { listConfigProblems, validateConfig } from '../config/validate';
import { configFromJson } from '../config/json';
import { episodesToRecord, shouldRecord, type RecordableEpisode } from './record-policy';

const withVideo = (every: number, episodes = 2) => ({ video: { every, episodes } });

describe('when videos are recorded', () => {
  it('defaults to every evaluation, two episodes, with doc text in the field table', () => {
    const config = defaultConfig();
    expect(config.video).toEqual({ every: 0, episodes: 2 });
    expect(CONFIG_FIELDS['video.every'].doc).toMatch(/0 = at every evaluation/);
    expect(CONFIG_FIELDS['video.episodes'].doc).toMatch(/0 = no videos/);
    // Default eval.every = 10: iterations 10 and 20 evaluate and record, 5 does not evaluate.
    expect(shouldRecord(config, 10, true)).toBe(true);
    expect(shouldRecord(config, 20, true)).toBe(true);
    expect(shouldRecord(config, 5, false)).toBe(false);
  });

  it('with video.every = N records only at evaluations on multiples of N', () => {
    const recorded = [];
    for (let iteration = 1; iteration <= 60; iteration++) {
      const evaluated = iteration % 10 === 0;
      if (shouldRecord(withVideo(30), iteration, evaluated)) recorded.push(iteration);
    }
    expect(recorded).toEqual([30, 60]);
    // A multiple of N without an evaluation has no eval episodes to show.
    expect(shouldRecord(withVideo(3), 9, false)).toBe(false);
  });

  it('never records with video.episodes = 0', () => {
    expect(shouldRecord(withVideo(0, 0), 10, true)).toBe(false);
    expect(shouldRecord(withVideo(5, 0), 10, true)).toBe(false);
  });

  it('picks the first video.episodes eval episodes of that iteration in env order', () => {
    const episodes: (RecordableEpisode & { id: string })[] = [
      { id: 'train-3', source: 'train', iteration: 4, envIndex: 0 },
      { id: 'eval-2', source: 'eval', iteration: 4, envIndex: 2 },
      { id: 'eval-old', source: 'eval', iteration: 2, envIndex: 0 },
      { id: 'eval-0', source: 'eval', iteration: 4, envIndex: 0 },
      { id: 'eval-1', source: 'eval', iteration: 4, envIndex: 1 },
    ];
    expect(episodesToRecord(withVideo(0, 2), 4, episodes).map((episode) => episode.id)).toEqual(['eval-0', 'eval-1']);
    expect(episodesToRecord(withVideo(0, 9), 4, episodes).map((episode) => episode.id)).toEqual(['eval-0', 'eval-1', 'eval-2']);
    expect(episodesToRecord(withVideo(0, 0), 4, episodes)).toEqual([]);
    expect(episodesToRecord(withVideo(0, 2), 3, episodes)).toEqual([]);
  });

  it('validation asks for video.every to be a multiple of eval.every, and bounds both fields', () => {
    expect(() => validateConfig(applyOverrides(defaultConfig(), ['eval.every=10', 'video.every=30']))).not.toThrow();
    expect(() => validateConfig(applyOverrides(defaultConfig(), ['eval.every=10', 'video.every=15'])))
      .toThrow('video.every (15) must be a multiple of eval.every (10), since videos show eval episodes; or set video.every=0 to record at every evaluation');
    const problems = listConfigProblems(applyOverrides(defaultConfig(), ['eval.every=4', 'video.every=6']));
    expect(problems.map((problem) => problem.field)).toEqual(['video.every']);
    expect(() => applyOverrides(defaultConfig(), ['video.episodes=-1'])).toThrow(/video\.episodes/);
    expect(() => applyOverrides(defaultConfig(), ['video.every=1.5'])).toThrow(/video\.every/);
  });

  it('reads the video section from a run folder\'s config.json', () => {
    const config = configFromJson({ eval: { every: 5 }, video: { every: 10, episodes: 1 } });
    expect(config.video).toEqual({ every: 10, episodes: 1 });
    expect(() => configFromJson({ video: { frames: 3 } })).toThrow(/video\.frames/);
  });
});
