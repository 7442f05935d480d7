import { useRuntimeStore } from '../store/runtime-slice';
import { probeSummary } from './probe-text';

/** The start-up check that the tfjs backend samples a small policy: one sentence, the first values on request. */
export function ProbePanel() {
  const probe = useRuntimeStore((state) => state.probe);
  return (
    <section className="panel">
      <h2>Backend check</h2>
      {probe ? (
        <div data-testid="probe" data-shape={probe.shape.join(',')} data-finite={String(probe.allFinite)}>
          <p className={`probe-summary ${probe.allFinite ? 'probe-ok' : 'probe-bad'}`} data-testid="probe-summary">
            <span aria-hidden="true">{probe.allFinite ? '✓ ' : '✗ '}</span>{probeSummary(probe)}
          </p>
          <details className="small">
            <summary className="muted">first sampled values</summary>
            <p className="mono">{probe.firstActions.map((value) => value.toFixed(3)).join('  ')}</p>
          </details>
        </div>
      ) : (
        <p className="muted">checking the backend…</p>
      )}
    </section>
  );
}
