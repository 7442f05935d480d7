import { useRuntimeStore } from '../store/runtime-slice';

/** A first sample from a small policy in the trainer worker: shape, finiteness and the first values. */
export function ProbePanel() {
  const probe = useRuntimeStore((state) => state.probe);
  return (
    <section className="panel">
      <h2>Policy check</h2>
      {probe ? (
        <dl className="facts" data-testid="probe">
          <dt>actions shape</dt>
          <dd data-testid="probe-shape">[{probe.shape.join(', ')}]</dd>
          <dt>all finite</dt>
          <dd data-testid="probe-finite">{String(probe.allFinite)}</dd>
          <dt>backend</dt>
          <dd>{probe.backend}</dd>
          <dt>first values</dt>
          <dd className="mono">{probe.firstActions.map((value) => value.toFixed(3)).join('  ')}</dd>
        </dl>
      ) : (
        <p className="muted">sampling…</p>
      )}
    </section>
  );
}
