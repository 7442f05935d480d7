import { describe, expect, it } from 'vitest';
import { chartHeaderOwner } from './header-owner';

const past = { id: 'a', name: 'lr:low seed 0', colour: '#111', hidden: false, current: false };
const current = { id: 'b', name: 'pick-cube now', colour: '#222', hidden: false, current: true };

describe('chartHeaderOwner', () => {
  it('labels nothing without an overlay', () => {
    expect(chartHeaderOwner(undefined)).toBeUndefined();
  });

  it('labels the number as the current run\u2019s, in its colour when it is drawn', () => {
    expect(chartHeaderOwner([past, current])).toMatchObject({ label: 'this run', colour: '#222' });
    const notDrawn = chartHeaderOwner([past, { ...current, hidden: true }]);
    expect(notDrawn?.label).toBe('this run');
    expect(notDrawn?.colour).toBeUndefined();
    expect(notDrawn?.title).toMatch(/does not draw/);
    expect(chartHeaderOwner([past])?.colour).toBeUndefined();
  });
});
