import { describe, expect, it } from 'vitest';
import { assignRunColours, pickRunColour, RUN_PALETTE } from './run-colours';

describe('pickRunColour', () => {
  it('takes the first palette colour no selected run uses', () => {
    expect(pickRunColour(undefined, [])).toBe(RUN_PALETTE[0]);
    expect(pickRunColour(undefined, [RUN_PALETTE[0], RUN_PALETTE[2]])).toBe(RUN_PALETTE[1]);
  });

  it('gives a run back its old colour while it is free, and another one when it is taken', () => {
    expect(pickRunColour(RUN_PALETTE[4], [RUN_PALETTE[0]])).toBe(RUN_PALETTE[4]);
    expect(pickRunColour(RUN_PALETTE[0], [RUN_PALETTE[0]])).toBe(RUN_PALETTE[1]);
  });

  it('cycles through the palette once every colour is in use', () => {
    expect(RUN_PALETTE).toHaveLength(10);
    expect(new Set(RUN_PALETTE).size).toBe(10);
    expect(pickRunColour(undefined, [...RUN_PALETTE])).toBe(RUN_PALETTE[0]);
    expect(pickRunColour(undefined, [...RUN_PALETTE, RUN_PALETTE[0]])).toBe(RUN_PALETTE[1]);
  });
});

describe('assignRunColours', () => {
  it('gives runs selected together distinct colours in selection order', () => {
    const colours = assignRunColours(['a', 'b', 'c'], [], {});
    expect([colours.a, colours.b, colours.c]).toEqual(RUN_PALETTE.slice(0, 3));
  });

  it('keeps the colours of runs already selected and reuses a deselected run’s colour', () => {
    const first = assignRunColours(['a', 'b', 'c'], [], {});
    // b is deselected: its colour is free, so the next new run d takes it.
    const second = assignRunColours(['d'], ['a', 'c'], first);
    expect(second.d).toBe(RUN_PALETTE[1]);
    expect(second.a).toBe(RUN_PALETTE[0]);
    expect(second.c).toBe(RUN_PALETTE[2]);
    // b comes back while d holds its old colour: it gets the first free one instead.
    const third = assignRunColours(['b'], ['a', 'c', 'd'], second);
    expect(third.b).toBe(RUN_PALETTE[3]);
    expect(first.d).toBeUndefined();
  });

  it('gives a reselected run its remembered colour when nobody took it', () => {
    const first = assignRunColours(['a', 'b'], [], {});
    const again = assignRunColours(['b'], ['a'], first);
    expect(again.b).toBe(RUN_PALETTE[1]);
  });
});
