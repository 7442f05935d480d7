/**
 * The tasks the trainer knows (DESIGN.md §13): the built-ins, and task folders the user added,
 * which are validated in the trainer worker and kept in IndexedDB. Types only.
 */
import type { ObservationSliceMode } from '../core/envs/task-api';
import type { ObsType } from './run-control-api';

/** A task's sizes and names, all that config validation reads: the page knows an added task by these (its code runs in workers). */
export interface TaskShape {
  frameSkip: number;
  maxEpisodeSteps: number;
  stateSize: number;
  rewardModes: ('dense' | 'sparse')[];
  defaultControl: string;
  controls: { name: string; dim: number }[];
  observation: { slices: { name: string; dim: number; doc: string }[]; modes: ObservationSliceMode[] }[];
  /** The control the scripted expert acts in, when the task has one. */
  expertControl?: string;
}

/** A task the trainer knows, as the task picker offers it. */
export interface TaskEntry {
  name: string;
  doc: string;
  /** False for a task the user added (kept in IndexedDB). */
  builtIn: boolean;
  /** Observation kinds offered: state always; point cloud where a point-cloud checkpoint ships for it; depth point cloud and camera rgb where its scene names a camera. */
  obsTypes: ObsType[];
  hasSuccess: boolean;
  hasExpert: boolean;
  /** An added task's shape (built-ins are known to the page by their modules). */
  shape?: TaskShape;
}

/** One file of a dropped or chosen task folder; `path` is relative to the folder, '/'-separated ("meshes/link.stl"). */
export interface TaskFolderFile {
  path: string;
  bytes: Uint8Array;
}

/** A task folder as the page read it: its name and every file in it (the module, the scene, meshes). */
export interface TaskFolder {
  name: string;
  files: TaskFolderFile[];
}

export interface TasksApi {
  /** Every task the trainer knows: the built-ins, then the ones the user added. */
  listTasks(): Promise<TaskEntry[]>;
  /**
   * Checks a task folder completely (the module exports the contract, the scene compiles, a seeded
   * reset and ten random steps give finite values of the declared sizes) and only then keeps it;
   * a bad folder throws TaskError with one sentence naming the file and field, and nothing changes.
   */
  addTask(folder: TaskFolder): Promise<TaskEntry>;
  /** Forgets an added task; refused for a built-in and for the task of the current run. */
  removeTask(name: string): Promise<void>;
}
