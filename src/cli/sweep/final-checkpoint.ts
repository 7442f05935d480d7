import { existsSync, readFileSync } from 'node:fs';
import { decodePolicyCheckpoint } from '../../core/checkpoint/checkpoint-open';
import { decodeGaussianCheckpoint, isGaussianMetadata, peekFlowtuneMetadata } from '../../core/gaussian/gaussian-checkpoint';

/**
 * Why a run's final checkpoint cannot count as trained (missing, cut short, corrupt, another
 * task), or undefined when it decodes and validates completely.
 */
export function finalCheckpointProblem(file: string, task: string): string | undefined {
  if (!existsSync(file)) return `${file} does not exist`;
  try {
    const bytes = new Uint8Array(readFileSync(file));
    if (isGaussianMetadata(peekFlowtuneMetadata({ kind: 'flowtune', name: file, bytes }))) decodeGaussianCheckpoint(bytes, { task });
    else decodePolicyCheckpoint(bytes, { expectedTask: task });
    return undefined;
  } catch (error) {
    return `${file} is not a usable checkpoint (${(error as Error).message})`;
  }
}
