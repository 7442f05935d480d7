import './register-tasks';
import { useEffect, useState } from 'react';
import { parseBackendName } from '../core/backend/choose-backend';
import { decodeConfigHash, defaultConfig, encodeConfigHash, type RunConfig } from '../core/config';
import { ChartsPanel } from './charts/ChartsPanel';
import { DemosPanel } from './demos/DemosPanel';
import { BackendBadge } from './components/BackendBadge';
import { CheckpointPanel } from './components/CheckpointPanel';
import { ConfigPanel } from './components/ConfigPanel';
import { ExportPanel } from './components/ExportPanel';
import { FaultPanel } from './components/FaultPanel';
import { NoisePanel } from './components/NoisePanel';
import { ProbePanel } from './components/ProbePanel';
import { ResetConfirm } from './components/ResetConfirm';
import { ResumeBanner } from './components/ResumeBanner';
import { RunControls } from './components/RunControls';
import { StatusBar } from './components/StatusBar';
import { CameraPanel } from './inspect/CameraPanel';
import { ChainView } from './inspect/ChainView';
import { EpisodeGallery } from './gallery/EpisodeGallery';
import { RunsPanel } from './runs/RunsPanel';
import { fetchStaleDetails, loadRunsAndSweeps } from './runs/runs-actions';
import { ReplayView } from './scene3d/ReplayView';
import { ChainPathsView } from './scene3d/ChainPathsView';
import { LiveView } from './scene3d/LiveView';
import { useCompareStore } from './store/compare-slice';
import { useRunStore } from './store/run-slice';
import { useRuntimeStore } from './store/runtime-slice';
import { registerTaskStandIns } from './tasks/known-tasks';
import { VideoList } from './videos/VideoList';
import { startVideoRecorder } from './videos/video-recorder';
import { errorText, subscribeTrainerEvents, trainerClient } from './workers/trainer-client';

const params = new URLSearchParams(window.location.search);
/** Fault hooks exist only in non-production builds (dev server, or `vite build --mode e2e`) and only with ?faults=1. */
const faultsEnabled = import.meta.env.MODE !== 'production' && params.get('faults') === '1';
/** Stubbed backend timings (?stub_backend_timings=webgpu:1/2,wasm:10/20), for the e2e test of the backend choice: non-production builds only. */
const stubbedBackendTimings = import.meta.env.MODE !== 'production' ? params.get('stub_backend_timings') ?? undefined : undefined;

/**
 * The config in the URL hash, or the defaults with the hash's one-sentence problem. A task the page
 * does not know yet may be one the user added: `namesTask` says to read the hash again once the
 * trainer has listed the added tasks.
 */
function configFromHash(): { config: RunConfig; problem?: string; namesTask?: boolean } {
  try {
    return { config: decodeConfigHash(window.location.hash) };
  } catch (error) {
    const namesTask = (error as { field?: string }).field === 'task';
    return { config: defaultConfig(), problem: `URL hash rejected: ${errorText(error)}`, namesTask };
  }
}

/** Read before the first render; the hash sync waits for the task list, so it never overwrites a shared link with the defaults. */
const initialConfig = configFromHash();
useRunStore.getState().setConfig(initialConfig.config);

async function startStudio(): Promise<void> {
  const runtime = useRuntimeStore.getState();
  const run = useRunStore.getState();
  const client = trainerClient();
  const report = await client.init({ backend: parseBackendName(params.get('backend')), faults: faultsEnabled, stubbedBackendTimings });
  runtime.setBackend(report);
  startVideoRecorder();
  await subscribeTrainerEvents();
  // The Runs tab's lists; a failure here leaves the rest of the studio working.
  await loadRunsAndSweeps().catch((error: unknown) => run.setRunError(`run list unavailable: ${errorText(error)}`));
  const tasks = await client.listTasks();
  registerTaskStandIns(tasks);
  const { config, problem } = initialConfig.namesTask ? configFromHash() : initialConfig;
  if (problem) run.setConfigNotice({ kind: 'error', text: problem });
  run.setConfig(config);
  run.setTasks(tasks);
  await client.setConfig(config);
  await client.selectTask(config.task, config.env.obs_type);
  run.setStatus(await client.status());
  runtime.setProbe(await client.probeSample(1));
  // Last, so start-up reaches the same state as without a queue before its run takes the trainer.
  await resumeInterruptedQueue();
  // Read once any queue has resumed: its run then holds the autosave, which the resume banner must not offer.
  run.setSavedRun(await client.savedRun());
}

/** A reload resumes an interrupted queue; the status bar then shows where it is. */
async function resumeInterruptedQueue(): Promise<void> {
  const client = trainerClient();
  const run = useRunStore.getState();
  try {
    const queue = await client.resumeQueue();
    useCompareStore.getState().setQueue(queue);
    if (queue) run.setStatus(await client.status());
  } catch (error) {
    run.setRunError(`queue not resumed: ${errorText(error)}`);
  }
}

/** Fetches the config and metrics of selected runs whose details are missing or out of date. */
function useRunDetailsSync(): void {
  const selected = useCompareStore((state) => state.selected);
  const runs = useCompareStore((state) => state.runs);
  const details = useCompareStore((state) => state.details);
  useEffect(() => {
    void fetchStaleDetails();
  }, [selected, runs, details]);
}

/** Takes the offered rollback after non-finite updates; the run then waits, paused, for Train. */
async function rollBack(): Promise<void> {
  const run = useRunStore.getState();
  try {
    await trainerClient().rollBack();
    run.setRunError(undefined);
  } catch (error) {
    run.setRunError(errorText(error));
  }
}

/** Keeps the URL hash equal to the accepted config, and applies hand-edited hashes. */
function useHashSync(): void {
  const config = useRunStore((state) => state.config);
  // Until the trainer lists the tasks, a hash naming an added task cannot be read yet: it stays as it is.
  const tasksListed = useRunStore((state) => state.tasks.length > 0);
  useEffect(() => {
    if (!tasksListed) return;
    const hash = encodeConfigHash(config);
    if (window.location.hash.replace(/^#/, '') !== hash) window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}${hash ? `#${hash}` : ''}`);
  }, [config, tasksListed]);
  useEffect(() => {
    const onHashChange = () => {
      const { config: next, problem } = configFromHash();
      if (problem) useRunStore.getState().setConfigNotice({ kind: 'error', text: problem });
      else void trainerClient().setConfig(next).catch((error: unknown) => useRunStore.getState().setConfigNotice({ kind: 'error', text: errorText(error) }));
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
}

type MainTab = 'charts' | 'config' | 'inspect' | 'runs' | 'demos';

const TAB_LABELS: Record<MainTab, string> = { charts: 'Charts', config: 'Config', inspect: 'Inspect', runs: 'Runs', demos: 'New from demos' };

export function App() {
  const error = useRuntimeStore((state) => state.error);
  const runError = useRunStore((state) => state.runError);
  const configNotice = useRunStore((state) => state.configNotice);
  const taskNotice = useRunStore((state) => state.taskNotice);
  const runNotice = useRunStore((state) => state.runNotice);
  const rollbackIteration = useRunStore((state) => state.status?.rollbackIteration);
  const [tab, setTab] = useState<MainTab>('charts');
  useHashSync();
  useRunDetailsSync();
  useEffect(() => {
    startStudio().catch((reason: unknown) => useRuntimeStore.getState().fail(errorText(reason)));
  }, []);
  return (
    <div className="studio">
      <header className="topbar">
        <span className="brand">Flowtune Studio</span>
        <BackendBadge />
        <span className="muted" data-testid="isolation">{window.crossOriginIsolated ? 'cross-origin isolated' : 'not isolated'}</span>
      </header>
      <RunControls />
      {taskNotice && (
        <div className={`notice-banner notice-${taskNotice.kind}`} role={taskNotice.kind === 'error' ? 'alert' : 'status'} data-testid="task-notice" data-kind={taskNotice.kind}>
          {taskNotice.text}
          <button className="link" onClick={() => useRunStore.getState().setTaskNotice(undefined)}>dismiss</button>
        </div>
      )}
      <ResetConfirm />
      <ResumeBanner />
      {runNotice && (
        <div className="notice-banner notice-ok" role="status" data-testid="run-notice">
          {runNotice}
          <button className="link" onClick={() => useRunStore.getState().setRunNotice(undefined)}>dismiss</button>
        </div>
      )}
      {error && <div className="error-banner" role="alert" data-testid="error">{error}</div>}
      {runError && (
        <div className="error-banner" role="alert" data-testid="run-error">
          {runError}
          {rollbackIteration !== undefined && (
            <button data-testid="rollback" title="Back to the run's newest autosave, with half the actor learning rate (config on_nonfinite=rollback does this by itself)"
              onClick={() => void rollBack()}>
              Roll back to iteration {rollbackIteration} with half the actor lr
            </button>
          )}
          <button className="link" onClick={() => useRunStore.getState().setRunError(undefined)}>dismiss</button>
        </div>
      )}
      {configNotice && (
        <div className={`notice-banner notice-${configNotice.kind}`} role="alert" data-testid="config-notice">
          {configNotice.text}
          <button className="link" onClick={() => useRunStore.getState().setConfigNotice(undefined)}>dismiss</button>
        </div>
      )}
      <div className="workspace">
        <aside className="sidebar">
          <CheckpointPanel />
          <NoisePanel />
          <ExportPanel />
          {faultsEnabled && <FaultPanel />}
          <ProbePanel />
        </aside>
        <main className="main">
          <nav className="tabs" role="tablist">
            {(['charts', 'config', 'inspect', 'runs', 'demos'] as const).map((name) => (
              <button key={name} role="tab" aria-selected={tab === name} className={tab === name ? 'active' : ''} data-testid={`tab-${name}`} onClick={() => setTab(name)}>
                {TAB_LABELS[name]}
              </button>
            ))}
          </nav>
          {/* Keyed by tab: each tab opens at its top instead of at the previous tab's scroll position. */}
          <div className="tab-body" key={tab} data-testid="tab-body">
            {tab === 'charts' && <ChartsPanel />}
            {tab === 'config' && <ConfigPanel />}
            {tab === 'runs' && <RunsPanel />}
            {tab === 'demos' && <DemosPanel />}
            {tab === 'inspect' && (
              <div className="inspect-slot" data-testid="inspect-slot">
                <ChainView />
                <div className="episodes-layout">
                  <ChainPathsView />
                  <LiveView />
                </div>
                <div className="episodes-layout">
                  <EpisodeGallery />
                  <div className="replay-column">
                    <ReplayView />
                    <CameraPanel />
                  </div>
                </div>
                <VideoList />
              </div>
            )}
          </div>
        </main>
      </div>
      <StatusBar />
    </div>
  );
}
