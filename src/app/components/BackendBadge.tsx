import { useRuntimeStore } from '../store/runtime-slice';

/** Shows the tfjs backend in use and the WebGPU adapter behind it (DESIGN.md §7). */
export function BackendBadge() {
  const backend = useRuntimeStore((state) => state.backend);
  const phase = useRuntimeStore((state) => state.phase);
  if (!backend) return <span className="badge" data-testid="backend">{phase === 'error' ? 'no backend' : 'starting…'}</span>;
  const adapter = backend.adapter;
  const adapterText = adapter ? adapter.description || `${adapter.vendor} ${adapter.architecture}`.trim() || 'unnamed adapter' : 'no WebGPU adapter';
  return (
    <span className="badge" title={backend.failures.map((failure) => `${failure.backend}: ${failure.reason}`).join('\n')}>
      <span data-testid="backend">{backend.backend}</span>
      <span className="muted"> · </span>
      <span data-testid="adapter">{adapterText}</span>
      {backend.softwareAdapter && <span className="muted" data-testid="software-adapter"> (software)</span>}
      {backend.forced && <span className="muted"> · forced</span>}
    </span>
  );
}
