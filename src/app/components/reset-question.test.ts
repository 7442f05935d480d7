import { describe, expect, it } from 'vitest';
import { resetQuestion } from './reset-question';

describe('resetQuestion', () => {
  it('says a run is kept with its weights as they are now, since Reset saves it as it stops', () => {
    expect(resetQuestion('paused', 12, 10)).toBe('Reset the run at iteration 12? It stays in the Runs list with its weights as they are now, resumable there, and the charts clear.');
    expect(resetQuestion('running', 3, undefined)).toContain('its weights as they are now');
  });

  it('names the newest autosave of a run that stopped with an error, or says it kept none', () => {
    expect(resetQuestion('error', 9, 6)).toContain('with its weights from iteration 6, resumable there');
    expect(resetQuestion('error', 1, undefined)).toContain('with its metrics only (it saved no weights)');
  });

  it('says nothing is kept of a run with no finished iteration', () => {
    expect(resetQuestion('running', 0, undefined)).toBe('Reset the run? It has not finished an iteration, so nothing of it is kept.');
  });
});
