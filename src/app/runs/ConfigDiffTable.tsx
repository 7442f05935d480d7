import { useMemo } from 'react';
import { diffConfigs, type RunConfig } from '../../core/config';
import { useSelectedRuns } from './use-selected-runs';

/** The config keys on which the selected runs differ: one column per run, one row per key. */
export function ConfigDiffTable() {
  const runs = useSelectedRuns(false);
  const columns = useMemo(() => runs.filter((run): run is typeof run & { config: RunConfig } => run.config !== undefined), [runs]);
  const rows = useMemo(() => diffConfigs(columns.map((run) => run.config)), [columns]);
  let message: string | undefined;
  if (runs.length < 2) message = 'Select two or more runs to compare their configs.';
  else if (columns.length < 2) message = 'Loading the selected runs’ configs…';
  else if (rows.length === 0) message = 'the selected runs have the same config';
  return (
    <section className="panel" data-testid="config-diff">
      <h2>Config diff</h2>
      {message !== undefined ? (
        <p className="muted" data-testid="config-diff-message">{message}</p>
      ) : (
        <div className="runs-scroll">
          <table className="runs-table config-diff-table">
            <thead>
              <tr>
                <th>key</th>
                {columns.map((run) => (
                  <th key={run.id} data-run-id={run.id}><span className="plot-swatch" style={{ background: run.colour }} />{run.name}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} data-testid="config-diff-row" data-key={row.key}>
                  <th className="mono" scope="row">{row.key}</th>
                  {row.values.map((value, index) => <td key={columns[index].id} className="mono">{value}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {message === undefined && columns.length < runs.length && <p className="muted small">{runs.length - columns.length} selected runs are still loading.</p>}
    </section>
  );
}
