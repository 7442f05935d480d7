/** A checkpoint decoded for a run, whatever its policy family (DESIGN.md §16): tensors as plain arrays, no tf variable yet. */
import type { PolicyCheckpoint } from '../checkpoint/checkpoint-open';
import type { GaussianCheckpoint } from '../gaussian/gaussian-checkpoint';

export type FamilyCheckpoint = PolicyCheckpoint | GaussianCheckpoint;
