import { Fragment } from 'react';
import { useRuntimeStore } from '../store/runtime-slice';
import { backendTitle, speedFigures } from './backend-text';

/**
 * Shows the tfjs backend in use, the WebGPU adapter behind it (DESIGN.md §7), and the figures of
 * the timing that chose it, the one in use in bold.
 */
export function BackendBadge() {
  const backend = useRuntimeStore((state) => state.backend);
  const phase = useRuntimeStore((state) => state.phase);
  if (!backend) return <span className="badge" data-testid="backend">{phase === 'error' ? 'no backend' : 'starting…'}</span>;
  const adapter = backend.adapter;
  const adapterText = adapter ? adapter.description || `${adapter.vendor} ${adapter.architecture}`.trim() || 'unnamed adapter' : 'no WebGPU adapter';
  const figures = speedFigures(backend);
  return (
    <span className="badge" title={backendTitle(backend)} data-testid="backend-badge" data-choice={backend.choice}>
      <span data-testid="backend">{backend.backend}</span>
      <span className="muted"> · </span>
      <span data-testid="adapter">{adapterText}</span>
      {backend.softwareAdapter && <span className="muted" data-testid="software-adapter"> (software)</span>}
      {backend.forced && <span className="muted" data-testid="backend-forced"> · forced</span>}
      {backend.choice === 'resumed' && <span className="muted" data-testid="backend-resumed"> · as the run was saved</span>}
      {figures.length > 0 && (
        <span data-testid="backend-speeds">
          <span className="muted"> · </span>
          {figures.map((figure, index) => (
            <Fragment key={figure.backend}>
              {index > 0 && <span className="muted"> · </span>}
              <span className={figure.inUse ? 'speed-in-use' : 'muted'} data-testid={`speed-${figure.backend}`} data-in-use={figure.inUse}>{figure.text}</span>
            </Fragment>
          ))}
        </span>
      )}
      {backend.stubbed && <span className="muted" data-testid="backend-stubbed"> (stubbed)</span>}
      {backend.timing && <span className="muted" data-testid="backend-timing"> · timing backends…</span>}
    </span>
  );
}
