import { useMemo } from 'react';
import { useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { parseTaskVariant, taskVariant, taskVariants } from './task-variants';

async function act(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/** Task picker (with point-cloud variants) and the run controls: train/resume, pause, single step, stop, reset. */
export function RunControls() {
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  const task = useRunStore((state) => state.config.task);
  // A demos-flow stage holds the trainer while it runs, and its task until it ends.
  const recipePhase = useRecipeStore((state) => state.status?.phase);
  const recipeRunning = recipePhase === 'running';
  const recipeHoldsTask = recipeRunning || recipePhase === 'paused';
  const obsType = useRunStore((state) => state.config.env.obs_type);
  const variants = useMemo(() => taskVariants({ task, obsType }), [task, obsType]);
  const client = trainerClient();
  const running = phase === 'running' || phase === 'starting';
  const hasRun = phase !== 'idle';
  return (
    <div className="controls">
      <label className="task-picker">
        task
        <select value={taskVariant(task, obsType).value} disabled={hasRun || recipeHoldsTask} data-testid="task"
          title={hasRun ? 'Reset the run to change the task' : recipeHoldsTask ? 'A New-from-demos stage is using this task: let it finish or discard it' : 'Task and observation to train on'}
          onChange={(event) => {
            const variant = parseTaskVariant(event.target.value);
            if (variant) void act(() => trainerClient().selectTask(variant.task, variant.obsType));
          }}>
          {variants.map((variant) => <option key={variant.value} value={variant.value}>{variant.label}</option>)}
        </select>
      </label>
      <button className="primary" data-testid="train" disabled={running || phase === 'done' || recipeRunning}
        title={recipeRunning ? 'A New-from-demos stage is running: pause it or let it finish' : undefined} onClick={() => act(() => client.train())}>
        {phase === 'paused' || phase === 'stopped' ? 'Resume' : 'Train'}
      </button>
      <button data-testid="pause" disabled={phase !== 'running'} onClick={() => act(() => client.pause())}>Pause</button>
      <button data-testid="step" disabled={running || phase === 'done' || recipeRunning} title="Run one iteration, then pause" onClick={() => act(() => client.stepOnce())}>Step</button>
      <button data-testid="stop" disabled={!hasRun || phase === 'stopped' || phase === 'done'} onClick={() => act(() => client.stop())}>Stop</button>
      <button data-testid="reset" disabled={!hasRun || phase === 'starting'} title="End the run: it stays in the Runs list with its weights, and the charts clear"
        onClick={() => useRunStore.getState().setResetAsked(true)}>Reset…</button>
      <span className={`phase phase-${phase}`} data-testid="phase">{phase}</span>
    </div>
  );
}
