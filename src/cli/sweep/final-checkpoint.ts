import { existsSync, readFileSync } from 'node:fs';
import { parseCheckpointFile } from '../../core/checkpoint/checkpoint-file';
import { decodeCheckpointAlone } from '../../core/run/open-checkpoint';

/**
 * Why a run's final checkpoint cannot count as trained (missing, cut short, corrupt, another
 * task), or undefined when it decodes and validates completely, whatever its policy family.
 */
export function finalCheckpointProblem(file: string, task: string): string | undefined {
  if (!existsSync(file)) return `${file} does not exist`;
  try {
    decodeCheckpointAlone(parseCheckpointFile({ kind: 'flowtune', name: file, bytes: new Uint8Array(readFileSync(file)) }, { expectedTask: task }));
    return undefined;
  } catch (error) {
    return `${file} is not a usable checkpoint (${(error as Error).message})`;
  }
}
