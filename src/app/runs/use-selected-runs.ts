import { useMemo } from 'react';
import type { MetricRecord } from '../../core/metrics';
import { useCompareStore } from '../store/compare-slice';
import { useRunStore } from '../store/run-slice';
import { resolveSelectedRuns, type SelectedRun } from './selected-runs';

const NO_RECORDS: readonly MetricRecord[] = [];

/**
 * The runs selected in the Runs tab with their data. Pass `withLiveRecords` where the current
 * run's curve is drawn: the result then changes with every streamed record, but only while the
 * current run is selected, so training leaves an overlay of past runs alone.
 */
export function useSelectedRuns(withLiveRecords: boolean): SelectedRun[] {
  const selected = useCompareStore((state) => state.selected);
  const hidden = useCompareStore((state) => state.hidden);
  const runs = useCompareStore((state) => state.runs);
  const details = useCompareStore((state) => state.details);
  const colours = useCompareStore((state) => state.colours);
  const config = useRunStore((state) => state.config);
  const currentSelected = useCompareStore((state) => state.runs.some((run) => run.current && state.selected.includes(run.id)));
  const liveRecords = useRunStore((state) => (withLiveRecords && currentSelected ? state.records : NO_RECORDS));
  return useMemo(
    () => resolveSelectedRuns({ selected, hidden, runs, details, colours, live: { records: liveRecords, config } }),
    [selected, hidden, runs, details, colours, liveRecords, config],
  );
}
