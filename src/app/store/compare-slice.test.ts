import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config';
import type { RunListing } from '../../protocol/trainer-api';
import { RUN_PALETTE } from '../runs/run-colours';
import { useCompareStore } from './compare-slice';

const listing = (id: string, updatedAt = 1): RunListing =>
  ({ id, name: id, origin: 'imported', task: 'reach', iterations: 3, envSteps: 96, createdAt: 1, updatedAt, current: false, finished: true });

describe('useCompareStore', () => {
  beforeEach(() => useCompareStore.setState({ runs: [], sweeps: [], queue: null, selected: [], hidden: [], details: {}, colours: {}, notice: undefined }));

  it('selects runs in order once each, colouring them from the palette', () => {
    const store = useCompareStore.getState();
    store.select(['a', 'b', 'a']);
    store.select(['b', 'c']);
    const { selected, colours } = useCompareStore.getState();
    expect(selected).toEqual(['a', 'b', 'c']);
    expect([colours.a, colours.b, colours.c]).toEqual(RUN_PALETTE.slice(0, 3));
  });

  it('frees a deselected run’s colour and forgets it as hidden', () => {
    const store = useCompareStore.getState();
    store.select(['a', 'b']);
    store.toggleHidden('a');
    expect(useCompareStore.getState().hidden).toEqual(['a']);
    store.deselect(['a']);
    expect(useCompareStore.getState().hidden).toEqual([]);
    store.select(['c']);
    expect(useCompareStore.getState().colours.c).toBe(RUN_PALETTE[0]);
    store.toggleHidden('b');
    store.toggleHidden('b');
    expect(useCompareStore.getState().hidden).toEqual([]);
    store.clearSelection();
    expect(useCompareStore.getState().selected).toEqual([]);
  });

  it('drops runs no longer listed from the selection and the details cache', () => {
    const store = useCompareStore.getState();
    store.setRuns([listing('a'), listing('b')]);
    store.select(['a', 'b']);
    store.toggleHidden('b');
    store.addDetails([{ listing: listing('a'), config: defaultConfig(), records: [] }, { listing: listing('b'), config: defaultConfig(), records: [] }]);
    store.setRuns([listing('a', 2)]);
    const state = useCompareStore.getState();
    expect(state.selected).toEqual(['a']);
    expect(state.hidden).toEqual([]);
    expect(Object.keys(state.details)).toEqual(['a']);
  });
});
