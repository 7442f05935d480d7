/** Dropped run and sweep folders as kept runs and sweeps (ids from their paths, so a re-import replaces). */
import { readDroppedFolders } from '../sweep/folder-import';
import type { DroppedFile, ImportedSweep, ImportResult } from '../../protocol/runs-api';
import { runProgress, type RunArchive, type StoredListing } from './run-archive';

/** A folder's last name; files dropped loose (no folder) are named for what they are. */
const baseName = (folder: string, loose: string) => folder.slice(folder.lastIndexOf('/') + 1) || loose;
const sweepId = (folder: string) => `import-sweep:${folder}`;

export async function importFolders(archive: RunArchive, files: readonly DroppedFile[], now = Date.now()): Promise<ImportResult> {
  const { runs, sweeps, warnings } = readDroppedFolders(files);
  const kept = runs.map((run) => {
    const listing: StoredListing = {
      id: `import:${run.folder}`,
      name: run.variant !== undefined ? `${run.variant} · seed ${run.seed ?? '?'}` : baseName(run.folder, 'dropped run'),
      origin: 'imported', task: run.config.task,
      group: run.sweepFolder !== undefined ? sweepId(run.sweepFolder) : undefined,
      variant: run.variant, seed: run.seed ?? (run.sweepFolder !== undefined ? undefined : run.config.seed),
      ...runProgress(run.config, run.records),
      createdAt: now, updatedAt: now,
    };
    return { listing, config: run.config, records: run.records };
  });
  const importedSweeps: ImportedSweep[] = sweeps.map((sweep) => ({
    id: sweepId(sweep.folder), name: baseName(sweep.folder, 'dropped sweep'), summary: sweep.summary,
    runIds: sweep.runFolders.map((folder) => `import:${folder}`), importedAt: now,
  }));
  await archive.keepRuns(kept);
  await archive.keepSweeps(importedSweeps);
  return { runs: kept.map((run) => ({ ...run.listing, current: false })), sweeps: importedSweeps, warnings };
}
