import { useCompareStore } from '../store/compare-slice';
import type { SelectedRun } from '../runs/selected-runs';

/** The runs overlaid on the charts: a click hides or shows a run's curves; "clear" ends the comparison. */
export function ChartLegend({ runs }: { runs: readonly SelectedRun[] }) {
  const { toggleHidden, clearSelection } = useCompareStore.getState();
  return (
    <div className="chart-legend" data-testid="chart-legend">
      {runs.map((run) => (
        <button key={run.id} type="button" className={`legend-entry${run.hidden ? ' legend-hidden' : ''}`} data-testid="legend-entry" data-run-id={run.id}
          aria-pressed={!run.hidden} title={run.records === undefined ? 'loading its metrics…' : run.hidden ? 'show this run' : 'hide this run'} onClick={() => toggleHidden(run.id)}>
          <span className="plot-swatch" style={{ background: run.colour }} />
          {run.name}{run.current ? ' (current)' : ''}
        </button>
      ))}
      <button type="button" className="link" data-testid="legend-clear" onClick={clearSelection}>clear</button>
    </div>
  );
}
