import { describe, expect, it } from 'vitest';
import { haltedHint, PAUSE_TITLE, STOP_TITLE } from './run-control-text';

describe('run control text', () => {
  it('says what a halted run keeps and what continues it', () => {
    expect(haltedHint('paused')).toBe('paused and saved: Resume or Step continues exactly where it halted');
    expect(haltedHint('stopped')).toBe('stopped and saved with its weights and metrics: Resume continues it, Reset… ends it');
    expect(haltedHint('running')).toBeUndefined();
    expect(haltedHint('idle')).toBeUndefined();
  });

  it('tells Pause and Stop apart', () => {
    expect(PAUSE_TITLE).toMatch(/^Pause: .*next decision/);
    expect(STOP_TITLE).toMatch(/^Stop: .*Reset… ends it/);
  });
});
