import { useEffect } from 'react';
import { parseBackendName } from '../core/backend/choose-backend';
import { BackendBadge } from './components/BackendBadge';
import { ProbePanel } from './components/ProbePanel';
import { useRuntimeStore } from './store/runtime-slice';
import { trainerClient } from './workers/trainer-client';

function forcedBackendFromUrl() {
  return parseBackendName(new URLSearchParams(window.location.search).get('backend'));
}

export function App() {
  const error = useRuntimeStore((state) => state.error);
  useEffect(() => {
    const { setBackend, setProbe, fail } = useRuntimeStore.getState();
    let cancelled = false;
    (async () => {
      const report = await trainerClient().init({ backend: forcedBackendFromUrl() });
      if (cancelled) return;
      setBackend(report);
      setProbe(await trainerClient().probeSample(1));
    })().catch((reason: unknown) => fail(reason instanceof Error ? reason.message : String(reason)));
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <div className="studio">
      <header className="topbar">
        <span className="brand">Flowtune Studio</span>
        <BackendBadge />
        <span className="muted" data-testid="isolation">{window.crossOriginIsolated ? 'cross-origin isolated' : 'not isolated'}</span>
      </header>
      {error && <div className="error-banner" role="alert" data-testid="error">{error}</div>}
      <main className="content">
        <ProbePanel />
      </main>
    </div>
  );
}
