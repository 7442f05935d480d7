import { create } from 'zustand';
import { defaultConfig, type RunConfig } from '../../core/config';
import type { MetricRecord } from '../../core/metrics/metric-keys';
import type { ModelSource, RunStatus, SavedRunSummary } from '../../protocol/trainer-api';

import type { XAxisKind } from '../charts/chart-data';
export type { XAxisKind };

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
}

interface RunState {
  status?: RunStatus;
  records: MetricRecord[];
  /** The config the worker accepted last (the last valid one). */
  config: RunConfig;
  model?: ModelSource;
  checkpointNotice?: Notice;
  configNotice?: Notice;
  runError?: string;
  savedRun?: SavedRunSummary | null;
  smoothing: number;
  xAxis: XAxisKind;
  setStatus(status: RunStatus): void;
  appendRecords(records: MetricRecord[]): void;
  setRecords(records: MetricRecord[]): void;
  setConfig(config: RunConfig): void;
  setModel(model: ModelSource): void;
  setCheckpointNotice(notice: Notice | undefined): void;
  setConfigNotice(notice: Notice | undefined): void;
  setRunError(message: string | undefined): void;
  setSavedRun(saved: SavedRunSummary | null): void;
  setSmoothing(weight: number): void;
  setXAxis(kind: XAxisKind): void;
}

/** Run state mirrored from the trainer worker's events; plain numbers only. */
export const useRunStore = create<RunState>()((set) => ({
  records: [],
  config: defaultConfig(),
  smoothing: 0.6,
  xAxis: 'env_steps',
  setStatus: (status) => set({ status }),
  appendRecords: (records) => set((state) => ({ records: [...state.records, ...records] })),
  setRecords: (records) => set({ records }),
  setConfig: (config) => set({ config }),
  setModel: (model) => set({ model }),
  setCheckpointNotice: (checkpointNotice) => set({ checkpointNotice }),
  setConfigNotice: (configNotice) => set({ configNotice }),
  setRunError: (runError) => set({ runError }),
  setSavedRun: (savedRun) => set({ savedRun }),
  setSmoothing: (smoothing) => set({ smoothing }),
  setXAxis: (xAxis) => set({ xAxis }),
}));
