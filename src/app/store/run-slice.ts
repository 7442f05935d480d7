import { create } from 'zustand';
import { defaultConfig, type RunConfig } from '../../core/config';
import type { MetricRecord } from '../../core/metrics/metric-keys';
import type { ModelSource, RunStatus, SavedRunSummary, TaskEntry } from '../../protocol/trainer-api';

import type { XAxisKind } from '../charts/chart-data';
export type { XAxisKind };

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
  /** Short lines under the sentence (a converted checkpoint's import notes). */
  notes?: string[];
}

export interface RunState {
  status?: RunStatus;
  records: MetricRecord[];
  /** The config the worker accepted last (the last valid one). */
  config: RunConfig;
  /** The tasks the trainer knows, as the picker offers them. */
  tasks: TaskEntry[];
  /** The model Train uses: the run's own while a run exists. */
  model?: ModelSource;
  /** A model chosen while a run exists: the run after Reset starts from it. */
  nextModel?: ModelSource;
  checkpointNotice?: Notice;
  /** What became of the last task folder added (or removed): accepted, or the check's one sentence. */
  taskNotice?: Notice;
  configNotice?: Notice;
  runError?: string;
  savedRun?: SavedRunSummary | null;
  /** The last sentence about what happened to a run (kept in the Runs list, resumed). */
  runNotice?: string;
  /** The Reset confirmation is showing. */
  resetAsked: boolean;
  smoothing: number;
  xAxis: XAxisKind;
  setStatus(status: RunStatus): void;
  appendRecords(records: MetricRecord[]): void;
  setRecords(records: MetricRecord[]): void;
  setConfig(config: RunConfig): void;
  setTasks(tasks: TaskEntry[]): void;
  setModel(model: ModelSource, next?: ModelSource): void;
  setCheckpointNotice(notice: Notice | undefined): void;
  setTaskNotice(notice: Notice | undefined): void;
  setConfigNotice(notice: Notice | undefined): void;
  setRunError(message: string | undefined): void;
  setSavedRun(saved: SavedRunSummary | null): void;
  setRunNotice(message: string | undefined): void;
  setResetAsked(asked: boolean): void;
  setSmoothing(weight: number): void;
  setXAxis(kind: XAxisKind): void;
}

/** Run state mirrored from the trainer worker's events; plain numbers only. */
export const useRunStore = create<RunState>()((set) => ({
  records: [],
  config: defaultConfig(),
  tasks: [],
  resetAsked: false,
  smoothing: 0.6,
  xAxis: 'env_steps',
  // A confirmation left open when the run ended some other way must not greet the next run.
  setStatus: (status) => set((state) => ({ status, resetAsked: status.phase === 'idle' ? false : state.resetAsked })),
  appendRecords: (records) => set((state) => ({ records: [...state.records, ...records] })),
  setRecords: (records) => set({ records }),
  setConfig: (config) => set({ config }),
  setTasks: (tasks) => set({ tasks }),
  setModel: (model, nextModel) => set({ model, nextModel }),
  setCheckpointNotice: (checkpointNotice) => set({ checkpointNotice }),
  setTaskNotice: (taskNotice) => set({ taskNotice }),
  setConfigNotice: (configNotice) => set({ configNotice }),
  setRunError: (runError) => set({ runError }),
  setSavedRun: (savedRun) => set({ savedRun }),
  setRunNotice: (runNotice) => set({ runNotice }),
  setResetAsked: (resetAsked) => set({ resetAsked }),
  setSmoothing: (smoothing) => set({ smoothing }),
  setXAxis: (xAxis) => set({ xAxis }),
}));
