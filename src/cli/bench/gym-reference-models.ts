/**
 * Gymnasium's own model files (../shared/models/gymnasium/, reference data beside the project,
 * never copied into it), for reference rows of the native comparison.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeModel } from './physics-vs-native';

const FILES = ['hopper.xml', 'walker2d_v5.xml', 'half_cheetah.xml', 'ant.xml'];
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The files that are present, labelled `gymnasium/<file>`. */
export function gymReferenceModels(): NativeModel[] {
  const dir = path.resolve(repoRoot, '../shared/models/gymnasium');
  return FILES.filter((file) => existsSync(path.join(dir, file)))
    .map((file) => ({ label: `gymnasium/${file}`, xml: readFileSync(path.join(dir, file), 'utf8') }));
}
