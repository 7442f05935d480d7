import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MetricRecord } from '../../core/metrics';
import type { QueueStatus, RunListing, RunStatus } from '../../protocol/trainer-api';
import { useCompareStore } from '../store/compare-slice';
import { useRunStore } from '../store/run-slice';
import { applyTrainerEvent } from './trainer-client';

function status(phase: RunStatus['phase'], iteration: number): RunStatus {
  return { phase, task: 'pick-cube', iteration, totalIterations: 10, envSteps: iteration * 64, totalEnvSteps: 640, elapsedSeconds: iteration, envRestarts: 0 };
}

describe('applyTrainerEvent', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useRunStore.setState({ records: [], status: undefined, runError: undefined });
  });
  afterEach(() => {
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
  });

  it('batches streamed records and status while running, and renders them within a second', () => {
    applyTrainerEvent({ type: 'status', status: status('running', 0) });
    expect(useRunStore.getState().status?.phase).toBe('running');
    const records: MetricRecord[] = Array.from({ length: 3 }, (_, index) => ({ 'progress/iteration': index + 1, 'losses/policy': Math.random() }));
    for (const [index, record] of records.entries()) {
      applyTrainerEvent({ type: 'metrics', record });
      applyTrainerEvent({ type: 'status', status: status('running', index + 1) });
    }
    // Nothing new is rendered until the flush timer fires.
    expect(useRunStore.getState().records).toHaveLength(0);
    expect(useRunStore.getState().status?.iteration).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(useRunStore.getState().records).toEqual(records);
    expect(useRunStore.getState().status?.iteration).toBe(3);
  });

  it('renders a phase change at once, with the records before it', () => {
    applyTrainerEvent({ type: 'status', status: status('running', 0) });
    applyTrainerEvent({ type: 'metrics', record: { 'progress/iteration': 1 } });
    applyTrainerEvent({ type: 'status', status: status('paused', 1) });
    expect(useRunStore.getState().status?.phase).toBe('paused');
    expect(useRunStore.getState().records).toEqual([{ 'progress/iteration': 1 }]);
  });

  it('replaces the history and drops records still waiting; errors name their kind', () => {
    applyTrainerEvent({ type: 'status', status: status('running', 0) });
    applyTrainerEvent({ type: 'metrics', record: { 'progress/iteration': 9 } });
    applyTrainerEvent({ type: 'history', records: [{ 'progress/iteration': 1 }, { 'progress/iteration': 2 }] });
    vi.advanceTimersByTime(1000);
    expect(useRunStore.getState().records.map((record) => record['progress/iteration'])).toEqual([1, 2]);
    applyTrainerEvent({ type: 'error', name: 'TrainingError', message: 'the trainer failed' });
    expect(useRunStore.getState().runError).toBe('TrainingError: the trainer failed');
  });

  it('puts the run list and the queue into the compare store, dropping deleted runs from the selection', () => {
    const listing = (id: string): RunListing => ({ id, name: id, origin: 'studio', task: 'pick-cube', iterations: 1, envSteps: 64, createdAt: 1, updatedAt: 1, current: false, finished: true });
    useCompareStore.setState({ runs: [], selected: [], hidden: [], details: {}, queue: null });
    applyTrainerEvent({ type: 'runs', runs: [listing('a'), listing('b')] });
    useCompareStore.getState().select(['a', 'b']);
    applyTrainerEvent({ type: 'runs', runs: [listing('b')] });
    expect(useCompareStore.getState().runs.map((run) => run.id)).toEqual(['b']);
    expect(useCompareStore.getState().selected).toEqual(['b']);
    const queue: QueueStatus = { id: 'q1', preset: 'reinflow-ablation', task: 'pick-cube', phase: 'running', items: [{ variant: 'baseline', seed: 0, state: 'running' }], currentIndex: 0 };
    applyTrainerEvent({ type: 'queue', queue });
    expect(useCompareStore.getState().queue).toEqual(queue);
    applyTrainerEvent({ type: 'queue', queue: null });
    expect(useCompareStore.getState().queue).toBeNull();
  });

  it('keeps the model Train uses apart from one that waits for Reset, and takes the offer and notices', () => {
    const info = (source: string, stage: string) => ({ source, task: 'pick-cube', stage, step: 1, iteration: 0, envSteps: 0, architecture: 'state', eval: {}, hasOptimizerState: false, format: 'flowtune' as const });
    const runModel = { kind: 'checkpoint' as const, info: info('checkpoints/pick-cube-bc.flowtune', 'bc') };
    const dropped = { kind: 'checkpoint' as const, info: info('pick-cube-ppo.flowtune', 'ppo') };
    applyTrainerEvent({ type: 'model', model: runModel, next: dropped });
    expect(useRunStore.getState().model).toEqual(runModel);
    expect(useRunStore.getState().nextModel).toEqual(dropped);
    // After Reset the dropped file is the model, and nothing waits.
    applyTrainerEvent({ type: 'model', model: dropped });
    expect(useRunStore.getState().model).toEqual(dropped);
    expect(useRunStore.getState().nextModel).toBeUndefined();

    useRunStore.getState().setSavedRun({ name: 'pick-cube 14:02', task: 'pick-cube', iteration: 230, envSteps: 1, savedAt: 1, records: 230 });
    applyTrainerEvent({ type: 'saved-run', saved: null });
    expect(useRunStore.getState().savedRun).toBeNull();
    applyTrainerEvent({ type: 'notice', message: 'the saved run pick-cube 14:02 from iteration 230 is kept in the Runs list with its weights: resume it there' });
    expect(useRunStore.getState().runNotice).toContain('from iteration 230 is kept in the Runs list');
  });

  it('closes an open Reset confirmation once the run is gone, so the next run does not inherit it', () => {
    useRunStore.getState().setResetAsked(true);
    applyTrainerEvent({ type: 'status', status: status('paused', 4) });
    expect(useRunStore.getState().resetAsked).toBe(true);
    applyTrainerEvent({ type: 'status', status: status('idle', 0) });
    expect(useRunStore.getState().resetAsked).toBe(false);
  });
});
