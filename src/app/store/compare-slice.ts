import { create } from 'zustand';
import type { ConfigKey } from '../../core/config';
import type { ImportedSweep, QueueStatus, RunDetails, RunListing } from '../../protocol/trainer-api';
import { assignRunColours } from '../runs/run-colours';
import type { Notice } from './run-slice';

interface CompareState {
  /** Every kept run as the trainer worker lists it, newest first. */
  runs: RunListing[];
  sweeps: ImportedSweep[];
  queue: QueueStatus | null;
  /** Run ids overlaid on the charts, in selection order. */
  selected: string[];
  /** Selected runs toggled off in the chart legend. */
  hidden: string[];
  /** Config and metrics of selected runs other than the current one, by id. */
  details: Record<string, RunDetails>;
  /** Colour of every run selected so far (kept after deselection, so a run gets its colour back). */
  colours: Record<string, string>;
  /** The config key whose values group the overlaid runs into mean curves with min–max bands; none when undefined. */
  groupBy?: ConfigKey;
  /** The Runs tab's last import or delete outcome. */
  notice?: Notice;
  setRuns(runs: RunListing[]): void;
  setSweeps(sweeps: ImportedSweep[]): void;
  setQueue(queue: QueueStatus | null): void;
  /** Adds runs to the overlay (already selected ones stay where they are). */
  select(ids: readonly string[]): void;
  deselect(ids: readonly string[]): void;
  clearSelection(): void;
  toggleHidden(id: string): void;
  addDetails(details: readonly RunDetails[]): void;
  setNotice(notice: Notice | undefined): void;
  setGroupBy(key: ConfigKey | undefined): void;
}

/** The Runs tab's state: the run list, imported sweeps, the queue and the overlay selection; plain data only. */
export const useCompareStore = create<CompareState>()((set) => ({
  runs: [],
  sweeps: [],
  queue: null,
  selected: [],
  hidden: [],
  details: {},
  colours: {},
  setRuns: (runs) =>
    set((state) => {
      // A run that is gone (deleted, or its sweep deleted) leaves the selection and the cache.
      const ids = new Set(runs.map((run) => run.id));
      const details = Object.fromEntries(Object.entries(state.details).filter(([id]) => ids.has(id)));
      return { runs, selected: state.selected.filter((id) => ids.has(id)), hidden: state.hidden.filter((id) => ids.has(id)), details };
    }),
  setSweeps: (sweeps) => set({ sweeps }),
  setQueue: (queue) => set({ queue }),
  select: (ids) =>
    set((state) => {
      const added = ids.filter((id, index) => !state.selected.includes(id) && ids.indexOf(id) === index);
      if (added.length === 0) return {};
      return { selected: [...state.selected, ...added], colours: assignRunColours(added, state.selected, state.colours) };
    }),
  deselect: (ids) => set((state) => ({ selected: state.selected.filter((id) => !ids.includes(id)), hidden: state.hidden.filter((id) => !ids.includes(id)) })),
  clearSelection: () => set({ selected: [], hidden: [] }),
  toggleHidden: (id) => set((state) => ({ hidden: state.hidden.includes(id) ? state.hidden.filter((other) => other !== id) : [...state.hidden, id] })),
  addDetails: (incoming) => {
    if (incoming.length > 0) set((state) => ({ details: { ...state.details, ...Object.fromEntries(incoming.map((entry) => [entry.listing.id, entry])) } }));
  },
  setNotice: (notice) => set({ notice }),
  setGroupBy: (groupBy) => set({ groupBy }),
}));
