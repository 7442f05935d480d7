import { describe, expect, it } from 'vitest';
import { importedPath, importSummary, MAX_IMPORT_FILE_BYTES, selectImportFiles } from './import-files';

describe('importedPath', () => {
  it('keeps the run and sweep text files with their path from the top folder', () => {
    expect(importedPath('/sweep1/runs/baseline-s0/metrics.jsonl')).toBe('sweep1/runs/baseline-s0/metrics.jsonl');
    expect(importedPath('sweep1/summary.json')).toBe('sweep1/summary.json');
    expect(importedPath('sweep1\\sweep.json')).toBe('sweep1/sweep.json');
    expect(importedPath('run-a//./result.json')).toBe('run-a/result.json');
    expect(importedPath('run-a/config.json')).toBe('run-a/config.json');
  });

  it('skips checkpoints, CSVs, markdown and look-alike names', () => {
    expect(importedPath('run-a/checkpoints/iter-10.flowtune')).toBeUndefined();
    expect(importedPath('run-a/metrics.csv')).toBeUndefined();
    expect(importedPath('sweep1/summary.md')).toBeUndefined();
    expect(importedPath('run-a/old-config.json')).toBeUndefined();
    expect(importedPath('run-a/.DS_Store')).toBeUndefined();
    expect(importedPath('')).toBeUndefined();
  });
});

describe('selectImportFiles', () => {
  it('keeps the wanted files in path order and passes their other fields through', () => {
    const picked = selectImportFiles([
      { path: '/run-a/metrics.jsonl', size: 10, tag: 1 },
      { path: '/run-a/checkpoints/final.flowtune', size: 500 * 1024 * 1024, tag: 2 },
      { path: '/run-a/config.json', size: 20, tag: 3 },
    ]);
    expect(picked).toEqual({ files: [{ path: 'run-a/config.json', size: 20, tag: 3 }, { path: 'run-a/metrics.jsonl', size: 10, tag: 1 }] });
  });

  it('refuses a kept file over 64 MiB with a sentence naming it', () => {
    expect(MAX_IMPORT_FILE_BYTES).toBe(64 * 1024 * 1024);
    const picked = selectImportFiles([{ path: 'run-a/metrics.jsonl', size: 70 * 1024 * 1024 }]);
    expect(picked).toEqual({ problem: expect.stringMatching(/^run-a\/metrics\.jsonl is 70\.0 MiB, over the 64\.0 MiB/) });
    expect(selectImportFiles([{ path: 'run-a/metrics.jsonl', size: MAX_IMPORT_FILE_BYTES }])).toHaveProperty('files');
  });

  it('says what to drop when nothing is left', () => {
    expect(selectImportFiles([{ path: 'notes/readme.txt', size: 3 }])).toEqual({ problem: expect.stringMatching(/^Nothing to import: drop a run folder/) });
    expect(selectImportFiles([])).toHaveProperty('problem');
  });
});

describe('importSummary', () => {
  it('says what was added, sweeps first', () => {
    expect(importSummary({ runs: new Array(6), sweeps: [{}] })).toBe('imported 1 sweep with 6 runs');
    expect(importSummary({ runs: new Array(3), sweeps: [{}, {}] })).toBe('imported 2 sweeps with 3 runs');
    expect(importSummary({ runs: [{}], sweeps: [] })).toBe('imported 1 run');
    expect(importSummary({ runs: [{}, {}], sweeps: [] })).toBe('imported 2 runs');
  });

  it('adds each warning, so a dropped torn line is shown with the import', () => {
    expect(importSummary({ runs: [{}], sweeps: [], warnings: ['r/metrics.jsonl: line 3 is cut short; it was dropped'] }))
      .toBe('imported 1 run; warning: r/metrics.jsonl: line 3 is cut short; it was dropped');
    expect(importSummary({ runs: [{}], sweeps: [], warnings: [] })).toBe('imported 1 run');
  });
});
