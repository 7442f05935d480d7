/**
 * Writes checkpoint.pt, linear.pt and arrays.npz (the samples of
 * src/core/checkpoint/torch/fixtures/written-samples.ts) into DIR, for
 * check_written_pt.py to load with torch and numpy.
 * Usage: npx tsx scripts/torch-crosscheck/write_samples.ts DIR
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sampleArrays, sampleCheckpoint, sampleLinear } from '../../src/core/checkpoint/torch/fixtures/written-samples';
import { writeNpz } from '../../src/core/checkpoint/torch/npz-writer';
import { writeTorchCheckpoint } from '../../src/core/checkpoint/torch/torch-pt-writer';

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error('usage: npx tsx scripts/torch-crosscheck/write_samples.ts DIR');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const files: Record<string, Uint8Array> = {
  'checkpoint.pt': writeTorchCheckpoint(sampleCheckpoint()),
  'linear.pt': writeTorchCheckpoint(sampleLinear()),
  'arrays.npz': writeNpz(sampleArrays()),
};
for (const [name, bytes] of Object.entries(files)) {
  writeFileSync(path.join(dir, name), bytes);
  console.log(path.join(dir, name));
}
