import { create } from 'zustand';
import type { BackendReport, ProbeSampleResult } from '../../protocol/trainer-api';

type Phase = 'starting' | 'ready' | 'error';

interface RuntimeState {
  phase: Phase;
  backend?: BackendReport;
  probe?: Omit<ProbeSampleResult, 'actions'> & { firstActions: number[] };
  error?: string;
  setBackend(report: BackendReport): void;
  setProbe(result: ProbeSampleResult): void;
  fail(message: string): void;
}

/** Runtime facts about the trainer worker; holds plain numbers only, never tensors. */
export const useRuntimeStore = create<RuntimeState>()((set) => ({
  phase: 'starting',
  setBackend: (backend) => set({ backend, phase: 'ready' }),
  setProbe: (result) =>
    set({ probe: { shape: result.shape, allFinite: result.allFinite, backend: result.backend, firstActions: Array.from(result.actions.slice(0, 8)) } }),
  fail: (error) => set({ phase: 'error', error }),
}));
