import { useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { TaskPicker } from '../tasks/TaskPicker';
import { errorText, trainerClient } from '../workers/trainer-client';
import { haltedHint, PAUSE_TITLE, STOP_TITLE } from './run-control-text';

async function act(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/** The Task control, then the run controls: train/resume, pause, single step, stop, reset. */
export function RunControls() {
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  // A demos-flow stage holds the trainer while it runs.
  const recipeRunning = useRecipeStore((state) => state.status?.phase === 'running');
  const client = trainerClient();
  const running = phase === 'running' || phase === 'starting';
  const hasRun = phase !== 'idle';
  const hint = haltedHint(phase);
  return (
    <div className="controls">
      <TaskPicker />
      <button className="primary" data-testid="train" disabled={running || phase === 'done' || recipeRunning}
        title={recipeRunning ? 'A New-from-demos stage is running: pause it or let it finish' : undefined} onClick={() => act(() => client.train())}>
        {phase === 'paused' || phase === 'stopped' ? 'Resume' : 'Train'}
      </button>
      <button className="control-pause" data-testid="pause" disabled={phase !== 'running'} title={PAUSE_TITLE} onClick={() => act(() => client.pause())}>
        <span className="control-icon" aria-hidden="true">❚❚</span>Pause
      </button>
      <button data-testid="step" disabled={running || phase === 'done' || recipeRunning} title="Run one iteration, then pause" onClick={() => act(() => client.stepOnce())}>Step</button>
      <button className="control-stop" data-testid="stop" disabled={!hasRun || phase === 'stopped' || phase === 'done'} title={STOP_TITLE} onClick={() => act(() => client.stop())}>
        <span className="control-icon" aria-hidden="true">■</span>Stop
      </button>
      <button data-testid="reset" disabled={!hasRun || phase === 'starting'} title="End the run: it stays in the Runs list with its weights, and the charts clear"
        onClick={() => useRunStore.getState().setResetAsked(true)}>Reset…</button>
      {hint && <span className="muted small halted-hint" data-testid="halted-hint">{hint}</span>}
      <span className={`phase phase-${phase}`} data-testid="phase">{phase}</span>
    </div>
  );
}
