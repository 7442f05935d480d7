import { describe, expect, it } from 'vitest';
import type { MetricRecord } from '../../core/metrics/metric-keys';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore } from '../store/run-slice';
import { applyTrainerEvent, clearRunView } from './trainer-client';

const record = (iteration: number) => ({ 'progress/iteration': iteration }) as MetricRecord;

describe('clearRunView', () => {
  it('empties the charts at once and drops records in flight until the worker sends its empty history', () => {
    useRunStore.getState().setRecords([record(1), record(2)]);
    useEpisodeStore.getState().addEpisodes([{ id: 'train-2-0', source: 'train', task: 'reach', iteration: 2, envIndex: 0, seed: 0, episodeReturn: 1, length: 5, success: true }]);
    const settle = clearRunView();
    expect(useRunStore.getState().records).toEqual([]);
    expect(useEpisodeStore.getState().episodes).toEqual([]);
    // The ended run's last iteration, streamed before the worker parked it, does not bring a curve back.
    applyTrainerEvent({ type: 'metrics', record: record(3) });
    applyTrainerEvent({ type: 'history', records: [] });
    settle(true);
    expect(useRunStore.getState().records).toEqual([]);
    // The next run's records are taken again.
    applyTrainerEvent({ type: 'history', records: [record(1)] });
    expect(useRunStore.getState().records).toEqual([record(1)]);
  });

  it('takes records again when Reset failed', () => {
    useRunStore.getState().setRecords([]);
    const settle = clearRunView();
    settle(false);
    applyTrainerEvent({ type: 'history', records: [record(4)] });
    expect(useRunStore.getState().records).toEqual([record(4)]);
  });
});
