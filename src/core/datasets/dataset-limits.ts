/**
 * Ceilings on what a dataset file may make us allocate (DESIGN.md §15: every file is untrusted).
 * Each is far above D4RL's and robomimic's low-dimensional sets (a few million steps, tens to
 * hundreds of MB) and far below what would take a browser tab down.
 */

/** Largest file read, HDF5 or npz (the whole file is held in memory). */
export const MAX_DATASET_FILE_BYTES = 1024 * 1024 * 1024;

/** Largest single array read out of a file (the HDF5 library's wasm heap holds it while it is copied out). */
export const MAX_DATASET_ARRAY_BYTES = 512 * 1024 * 1024;

/** Most steps (rows) a dataset may hold. */
export const MAX_DATASET_STEPS = 20_000_000;

/** Most values in one observation or action row. */
export const MAX_DATASET_ROW_VALUES = 1 << 20;

/** Most episodes (robomimic demos, D4RL episodes, ReinFlow trajectories). */
export const MAX_DATASET_EPISODES = 1_000_000;
