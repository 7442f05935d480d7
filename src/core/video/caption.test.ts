import { describe, expect, it } from 'vitest';
import { captionText, formatReturn, stepLabel, videoFileName, type VideoEpisodeFacts } from './caption';

const facts: VideoEpisodeFacts = { task: 'pick-cube', iteration: 12, envIndex: 1, episodeReturn: 3.256, length: 40, success: true };

describe('video caption', () => {
  it('names task, iteration, env, return to two decimals and the outcome', () => {
    expect(captionText(facts)).toBe('pick-cube · it 12 · ep 1 · return 3.26 · success');
    expect(captionText({ ...facts, success: false, episodeReturn: -0.004 })).toBe('pick-cube · it 12 · ep 1 · return 0.00 · failure');
    expect(captionText({ ...facts, task: 'lift', iteration: 0, envIndex: 0, episodeReturn: -12.5 })).toBe('lift · it 0 · ep 0 · return -12.50 · success');
  });

  it('keeps non-finite returns readable', () => {
    expect(formatReturn(Number.NaN)).toBe('NaN');
    expect(formatReturn(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(formatReturn(1)).toBe('1.00');
  });

  it('labels the step a frame shows, and rejects frames outside the episode', () => {
    expect(stepLabel(0, 40)).toBe('step 0/40');
    expect(stepLabel(40, 40)).toBe('step 40/40');
    expect(() => stepLabel(41, 40)).toThrow(/frameIndex must be an integer in \[0, 40\], got 41/);
    expect(() => stepLabel(-1, 40)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'frameIndex' }));
  });

  it('downloads as flowtune-<task>-it<iteration>-ep<envIndex>.webm with a safe task name', () => {
    expect(videoFileName(facts)).toBe('flowtune-pick-cube-it12-ep1.webm');
    expect(videoFileName({ task: 'a b/c', iteration: 3, envIndex: 0 })).toBe('flowtune-a_b_c-it3-ep0.webm');
    expect(videoFileName(facts, 'mp4')).toBe('flowtune-pick-cube-it12-ep1.mp4');
  });
});
