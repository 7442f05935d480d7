import { describe, expect, it } from 'vitest';
import { haltedHint, PAUSE_TITLE, STOP_TITLE } from './run-control-text';

describe('run control text', () => {
  it('says where a halted run is and what continues it', () => {
    // A pause lands inside the next iteration (mid-rollout or mid-update) after 3 finished ones.
    expect(haltedHint('paused', 3)).toBe('paused in iteration 4, saved: Resume or Step continues exactly');
    expect(haltedHint('stopped', 3)).toBe('stopped in iteration 4, saved with weights and metrics: Resume continues, Reset… ends it');
    expect(haltedHint('running', 3)).toBeUndefined();
  });

  it('tells Pause and Stop apart', () => {
    expect(PAUSE_TITLE).toMatch(/^Pause: .*next decision/);
    expect(STOP_TITLE).toMatch(/^Stop: .*Reset… ends it/);
  });
});
