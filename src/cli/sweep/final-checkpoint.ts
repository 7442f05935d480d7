import { existsSync, readFileSync } from 'node:fs';
import { decodePolicyCheckpoint } from '../../core/checkpoint/checkpoint-open';

/**
 * Why a run's final checkpoint cannot count as trained (missing, cut short, corrupt, another
 * task), or undefined when it decodes and validates completely.
 */
export function finalCheckpointProblem(file: string, task: string): string | undefined {
  if (!existsSync(file)) return `${file} does not exist`;
  try {
    decodePolicyCheckpoint(new Uint8Array(readFileSync(file)), { expectedTask: task });
    return undefined;
  } catch (error) {
    return `${file} is not a usable checkpoint (${(error as Error).message})`;
  }
}
