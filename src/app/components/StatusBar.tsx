import { formatCount } from '../plot/format';
import { queueProgressText } from '../runs/queue-progress';
import { useCompareStore } from '../store/compare-slice';
import { useRunStore } from '../store/run-slice';
import { useRuntimeStore } from '../store/runtime-slice';

function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '–';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  return hours > 0 ? `${hours}h ${String(minutes).padStart(2, '0')}m` : `${minutes}:${String(secs).padStart(2, '0')}`;
}

/** Backend, iteration, env steps, elapsed, ETA, progress toward the env-step budget, and the queue's place. */
export function StatusBar() {
  const status = useRunStore((state) => state.status);
  const queue = useCompareStore((state) => state.queue);
  const backend = useRuntimeStore((state) => state.backend);
  const fraction = status && status.totalEnvSteps > 0 ? Math.min(1, status.envSteps / status.totalEnvSteps) : 0;
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span>backend <b data-testid="status-backend">{backend?.backend ?? '…'}</b></span>
      <span>iteration <b className="mono" data-testid="status-iteration">{status?.iteration ?? 0}</b>{status?.totalIterations ? ` / ${status.totalIterations}` : ''}</span>
      <span>env steps <b className="mono" data-testid="status-env-steps">{formatCount(status?.envSteps ?? 0)}</b></span>
      <span>elapsed <b className="mono">{formatDuration(status?.elapsedSeconds)}</b></span>
      <span>ETA <b className="mono" data-testid="status-eta">{formatDuration(status?.etaSeconds)}</b></span>
      <div className="progress" title={`${(fraction * 100).toFixed(1)}% of ${formatCount(status?.totalEnvSteps ?? 0)} env steps`}>
        <div className="progress-fill" style={{ width: `${fraction * 100}%` }} data-testid="progress-fill" />
      </div>
      {queue && <span className={queue.phase === 'running' ? undefined : 'muted'} data-testid="queue-progress" data-phase={queue.phase}>{queueProgressText(queue)}</span>}
      {status?.savedIteration !== undefined && <span className="muted" data-testid="saved-iteration">autosaved at iteration {status.savedIteration}</span>}
      {status?.envRestarts ? <span className="muted" data-testid="env-restarts">env workers restarted {status.envRestarts}×</span> : null}
      {status?.message && <span className="muted status-message" data-testid="status-message">{status.message}</span>}
    </footer>
  );
}
