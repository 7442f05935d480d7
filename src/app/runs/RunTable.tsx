import { useMemo, useState } from 'react';
import type { RunListing } from '../../protocol/trainer-api';
import { useCompareStore } from '../store/compare-slice';
import { useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { tasksHaveSuccess } from '../charts/episode-charts';
import { formatEvalResult, formatUpdated, groupLabel, originBadge, resumeBlocker, runGroups, sortRunRows } from './run-rows';
import { filterRuns, nextSort, sortRunsBy, type RunSort, type RunSortColumn } from './run-table-order';
import { deleteRun, resumeRun } from './runs-actions';

interface RunRowProps {
  run: RunListing;
  group?: string;
  colour?: string;
  deleting: boolean;
  onDelete(): void;
  /** Why no kept run can be resumed now; undefined when one can. */
  resumeBlocked?: string;
  /** Its task has a success rule (else the eval column shows return). */
  hasSuccess: boolean;
}

function RunRow({ run, group, colour, deleting, onDelete, resumeBlocked, hasSuccess }: RunRowProps) {
  const [resuming, setResuming] = useState(false);
  const resume = () => {
    setResuming(true);
    void resumeRun(run.id).finally(() => setResuming(false));
  };
  const { select, deselect } = useCompareStore.getState();
  const selected = colour !== undefined;
  return (
    <tr data-testid="run-row" data-run-id={run.id} className={selected ? 'selected' : undefined}>
      <td>
        <input type="checkbox" checked={selected} data-testid="run-select" aria-label={`overlay ${run.name}`}
          onChange={(event) => (event.target.checked ? select([run.id]) : deselect([run.id]))} />
      </td>
      <td className="run-name" title={run.id}>
        {selected && <span className="plot-swatch" style={{ background: colour }} data-testid="run-colour" />}
        {run.name}
      </td>
      {/* Beside the name, so resume and delete stay in view when the table scrolls sideways. */}
      <td className="run-actions">
        {!run.current && !run.finished && run.savedIteration !== undefined && (
          <button className="link" data-testid="run-resume" disabled={resuming || resumeBlocked !== undefined}
            title={resumeBlocked ?? `Restore its weights from iteration ${run.savedIteration} and train on`} onClick={resume}>
            {resuming ? 'resuming…' : `resume at ${run.savedIteration}`}
          </button>
        )}
        {!run.current && (
          <button className="link" data-testid="run-delete" disabled={deleting} title="Forget this run and its saved weights (its folder on disk, if any, stays)" onClick={onDelete}>
            {deleting ? 'deleting…' : 'delete'}
          </button>
        )}
      </td>
      <td title={group}>
        <span className={`origin origin-${originBadge(run)}`} data-testid="run-origin">{originBadge(run)}</span>
      </td>
      <td>{run.task}</td>
      <td className="num mono" title={run.finished ? 'ran all its iterations' : 'did not run all its iterations (yet)'}>{run.iterations}</td>
      <td className="num mono">{run.envSteps.toLocaleString('en-US')}</td>
      <td className="num mono" data-testid="run-success">{formatEvalResult(run, hasSuccess)}</td>
      <td className="mono">{formatUpdated(run.updatedAt)}</td>
    </tr>
  );
}

/** A column header that sorts the table: ascending, descending, then the default order. */
function SortHeader({ column, label, sort, onSort, numeric, title }: {
  column: RunSortColumn; label: string; sort?: RunSort; onSort(column: RunSortColumn): void; numeric?: boolean; title?: string;
}) {
  const active = sort?.column === column;
  return (
    <th className={numeric ? 'num' : undefined} title={title} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button className="sort-header" data-testid={`run-sort-${column}`} onClick={() => onSort(column)}>
        {label}<span className="sort-mark" aria-hidden="true">{active ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>
  );
}

/**
 * Every kept run: the current one first, then the newest, or sorted by a column and filtered by words. A checkbox overlays a run on every chart
 * in its colour; a deleted row goes once the worker's next run list leaves it out.
 */
export function RunTable() {
  const runs = useCompareStore((state) => state.runs);
  const sweeps = useCompareStore((state) => state.sweeps);
  const queue = useCompareStore((state) => state.queue);
  const selected = useCompareStore((state) => state.selected);
  const colours = useCompareStore((state) => state.colours);
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  const recipePhase = useRecipeStore((state) => state.status?.phase);
  const tasks = useRunStore((state) => state.tasks);
  const resumeBlocked = resumeBlocker(phase, recipePhase);
  const [sort, setSort] = useState<RunSort>();
  const [query, setQuery] = useState('');
  const groups = useMemo(() => runGroups(sortRunRows(runs), sweeps, queue), [runs, sweeps, queue]);
  const rows = useMemo(() => {
    const shown = filterRuns(runs, query, (run) => groupLabel(run, sweeps, queue));
    return sortRunsBy(shown, sort, (task) => tasksHaveSuccess(tasks, [task]));
  }, [runs, query, sort, sweeps, queue, tasks]);
  const onSort = (column: RunSortColumn) => setSort((current) => nextSort(current, column));
  const [deleting, setDeleting] = useState<string[]>([]);
  const { select, clearSelection } = useCompareStore.getState();
  const remove = async (id: string) => {
    setDeleting((ids) => [...ids, id]);
    // On success the row goes with the worker's next run list; on a refusal it is usable again.
    if (!(await deleteRun(id))) setDeleting((ids) => ids.filter((other) => other !== id));
  };
  return (
    <section className="panel" data-testid="run-table">
      <h2>Runs</h2>
      <div className="runs-toolbar">
        <span className="muted" data-testid="run-count">{runs.length} runs · {selected.length} on the charts</span>
        <input type="search" className="run-filter" placeholder="filter runs…" title="Shows the runs whose name, task, variant or sweep holds every word" value={query} data-testid="run-filter"
          onChange={(event) => setQuery(event.target.value)} />
        {query && <span className="muted" data-testid="run-filter-count">{rows.length} shown</span>}
        {groups.map((group) => (
          <button key={group.id} className="link" data-testid="run-group-select" data-group-id={group.id} onClick={() => select(group.runIds)}>
            select all in {group.label} ({group.runIds.length})
          </button>
        ))}
        {selected.length > 0 && <button className="link" data-testid="run-select-none" onClick={clearSelection}>clear selection</button>}
      </div>
      {runs.length === 0 ? (
        <p className="muted">No runs yet: train one, run a queue, or import a run or sweep folder.</p>
      ) : (
        <div className="runs-scroll">
          <table className="runs-table">
            <thead>
              <tr>
                <th aria-label="on the charts" /><SortHeader column="name" label="name" sort={sort} onSort={onSort} /><th aria-label="actions" /><th>origin</th>
                <SortHeader column="task" label="task" sort={sort} onSort={onSort} /><SortHeader column="iterations" label="iterations" sort={sort} onSort={onSort} numeric />
                <SortHeader column="envSteps" label="env steps" sort={sort} onSort={onSort} numeric />
                <SortHeader column="eval" label="eval success" sort={sort} onSort={onSort} numeric title="The newest eval success rate; for a task without a success rule, the newest eval return" />
                <SortHeader column="updated" label="updated" sort={sort} onSort={onSort} />
              </tr>
            </thead>
            <tbody>
              {rows.map((run) => (
                <RunRow key={run.id} run={run} group={groupLabel(run, sweeps, queue)} colour={selected.includes(run.id) ? colours[run.id] : undefined}
                  deleting={deleting.includes(run.id)} onDelete={() => void remove(run.id)} resumeBlocked={resumeBlocked} hasSuccess={tasksHaveSuccess(tasks, [run.task])} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
