/**
 * A dataset read from another project's layout, before it is matched to a task: episodes of
 * observations, actions and rewards, and how each ended, as the native `.demos` holds them.
 */
import type { Demonstrations } from '../envs/expert-rollout';
import { DemosError } from '../errors';

/** The layouts read (DESIGN.md §18 "Datasets"). */
export type DatasetLayout = 'd4rl' | 'robomimic' | 'reinflow';

export const LAYOUT_NAMES: Readonly<Record<DatasetLayout, string>> = {
  d4rl: 'D4RL',
  robomimic: 'robomimic',
  reinflow: "ReinFlow/DPPO's train.npz",
};

/** The native demos' episode arrays (env units), with how each episode ended always known. */
export interface DatasetEpisodes extends Pick<Demonstrations, 'obsDim' | 'actionDim' | 'obs' | 'actions' | 'rewards' | 'episodeStarts' | 'success'> {
  layout: DatasetLayout;
  /** [E] 1 terminated (a fall, the task's end), 0 truncated (a time limit, or the data ran out). */
  terminated: Uint8Array;
  /** Where the observation came from, when the layout composes it (robomimic's obs_keys). */
  obsSource?: string;
  /** Short clauses the summary line adds (what was assumed or left out). */
  notes: string[];
}

/** Refuses non-finite values, naming the file, the array and the step. */
export function assertFinite(label: string, what: string, values: Float32Array, rowSize: number): void {
  for (let index = 0; index < values.length; index++) {
    if (!Number.isFinite(values[index])) {
      throw new DemosError(`${label}'s ${what} hold a non-finite value (NaN or ±Infinity) at step ${Math.floor(index / rowSize)}`);
    }
  }
}

/** Episode counts by how they ended. */
export function endCounts(terminated: Uint8Array): { terminated: number; truncated: number } {
  const count = terminated.reduce((sum, flag) => sum + flag, 0);
  return { terminated: count, truncated: terminated.length - count };
}
