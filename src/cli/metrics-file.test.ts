import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMetricsFile } from './metrics-file';

const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-metrics-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readMetricsFile', () => {
  it('drops a torn last line with one warning line naming the file, and refuses a bad line before it', () => {
    const file = path.join(dir, 'metrics.jsonl');
    writeFileSync(file, '{"progress/iteration":1}\n{"progress/iteration":2}\n{"progress/iteration":3,"losses/po');
    const warnings: string[] = [];
    expect(readMetricsFile(file, (line) => warnings.push(line))).toEqual([{ 'progress/iteration': 1 }, { 'progress/iteration': 2 }]);
    expect(warnings).toEqual([`warning: ${file}: line 3 is cut short (not valid JSON and not ended by a newline, as a crash mid-write leaves it); it was dropped`]);

    writeFileSync(file, '{"progress/iteration":1}\n{"progress/iteration":2\n{"progress/iteration":3}\n');
    expect(() => readMetricsFile(file, (line) => warnings.push(line))).toThrow(`${file} line 2 is not valid JSON`);
    expect(warnings).toHaveLength(1);
  });
});
