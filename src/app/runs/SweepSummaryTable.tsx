import { useMemo, useState } from 'react';
import type { ImportedSweep } from '../../protocol/trainer-api';
import { useCompareStore } from '../store/compare-slice';
import { deleteSweep } from './runs-actions';
import { sweepHeading, sweepTableRows } from './sweep-table';

/** An imported sweep's summary.json as summary.md shows it, with buttons to overlay or forget its runs. */
export function SweepSummaryTable({ sweep }: { sweep: ImportedSweep }) {
  const rows = useMemo(() => sweepTableRows(sweep.summary), [sweep.summary]);
  const listed = useCompareStore((state) => state.runs);
  const [deleting, setDeleting] = useState(false);
  const selectRuns = () => {
    const ids = new Set(listed.map((run) => run.id));
    useCompareStore.getState().select(sweep.runIds.filter((id) => ids.has(id)));
  };
  const remove = async () => {
    setDeleting(true);
    await deleteSweep(sweep.id);
    setDeleting(false);
  };
  return (
    <section className="panel sweep-summary" data-testid="sweep-summary" data-sweep-id={sweep.id}>
      <div className="runs-toolbar">
        <h2>{sweep.name} · {sweep.summary.preset} on {sweep.summary.task}</h2>
        <button className="link" data-testid="sweep-select" onClick={selectRuns}>select its runs</button>
        <button className="link" data-testid="sweep-delete" disabled={deleting} onClick={() => void remove()}>{deleting ? 'deleting…' : 'delete'}</button>
      </div>
      <p className="muted small" data-testid="sweep-heading">{sweepHeading(sweep.summary)}</p>
      <table className="runs-table">
        <thead>
          <tr>
            <th>variant</th><th>seeds</th><th className="num">success mean ± std</th><th className="num">vs baseline</th>
            <th className="num">env steps</th><th className="num">wall-clock per run</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.variant} data-testid="sweep-summary-row" data-variant={row.variant}>
              <td>{row.variant}</td>
              <td className="mono">{row.seeds}</td>
              <td className="num mono">{row.success}</td>
              <td className="num mono">{row.vsBaseline}</td>
              <td className="num mono">{row.envSteps}</td>
              <td className="num mono">{row.wallClock}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
