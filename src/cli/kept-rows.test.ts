import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { keptFromTable, keptPage } from './kept-rows';

/** A page whose rows are `| task | cell |` lines; extract returns the cell of a task's row. */
function page(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kept-rows-')), 'table.md');
  writeFileSync(file, '| task | cell |\n|---|---|\n| hopper | 2277 |\n| lift | 98% |\n');
  return file;
}
const cellOf = (table: string, task: string) => table.split('\n').find((line) => line.startsWith(`| ${task} |`))?.split('|')[2].trim();

describe('keep= reads the cells it carries over from the out= table', () => {
  it('returns each kept task\'s cells, and nothing for an empty keep=', () => {
    const out = page();
    expect([...keptFromTable({ keep: 'hopper, lift', out }, ['walker2d'], cellOf)]).toEqual([['hopper', '2277'], ['lift', '98%']]);
    expect(keptFromTable({ keep: '', out: 'absent.md' }, [], cellOf).size).toBe(0);
  });

  it('refuses in one sentence a missing table, a task it lacks, and a task both evaluated and kept', () => {
    const out = page();
    expect(() => keptPage(path.join(path.dirname(out), 'absent.md'))).toThrow(/absent\.md is not there/);
    expect(() => keptPage('')).toThrow(/no out= is not there/);
    expect(() => keptFromTable({ keep: 'walker2d', out }, [], cellOf)).toThrow(`${out} has no walker2d row to keep`);
    expect(() => keptFromTable({ keep: 'hopper', out }, ['hopper'], cellOf)).toThrow('hopper is both evaluated (tasks=) and kept (keep=)');
  });
});
