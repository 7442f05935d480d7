/**
 * A `.demos` file named on the command line: read and checked whole, every failure one sentence
 * naming the file. The observation it decides for stage 1 is core/config's pretrainConfigForDemos.
 */
import { readFileSync } from 'node:fs';
import { readDemoFile } from '../core/envs/demo-format';
import { DemosError } from '../core/errors';

/** The demonstrations in `path`; throws DemosError naming the file when it is missing or invalid. */
export function readDemosFile(path: string): ReturnType<typeof readDemoFile> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new DemosError(code === 'ENOENT' ? `demos file '${path}' does not exist` : `demos file '${path}' cannot be read (${code ?? 'unknown error'})`);
  }
  try {
    return readDemoFile(bytes);
  } catch (error) {
    throw new DemosError(`demos file '${path}' is invalid: ${(error as Error).message}`);
  }
}
