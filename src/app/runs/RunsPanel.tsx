import { useCompareStore } from '../store/compare-slice';
import { ConfigDiffTable } from './ConfigDiffTable';
import { QueueForm } from './QueueForm';
import { RunImport } from './RunImport';
import { RunTable } from './RunTable';
import { SweepScatter } from './SweepScatter';
import { SweepSummaryTable } from './SweepSummaryTable';

/** The Runs tab (DESIGN.md §11 "In the studio"): the run list, imports, config diff, the sweep scatter, sweep tables and the queue. */
export function RunsPanel() {
  const notice = useCompareStore((state) => state.notice);
  const sweeps = useCompareStore((state) => state.sweeps);
  return (
    <div className="runs-panel" data-testid="runs-panel">
      {notice && (
        <p className={`notice notice-${notice.kind} runs-notice`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="runs-notice">
          {notice.text}
          <button className="link" onClick={() => useCompareStore.getState().setNotice(undefined)}>dismiss</button>
        </p>
      )}
      <div className="runs-layout">
        <div className="runs-column">
          <RunTable />
          <ConfigDiffTable />
          <SweepScatter />
          {sweeps.map((sweep) => <SweepSummaryTable key={sweep.id} sweep={sweep} />)}
        </div>
        <div className="runs-column">
          <RunImport />
          <QueueForm />
        </div>
      </div>
    </div>
  );
}
