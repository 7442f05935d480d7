import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendFileDurable, FileWriteError, makeFolder, writeFileDurable } from './durable-write';
import { canMountSmallDisk, smallDisk } from './fixtures/small-disk';

const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fullDiskTests = canMountSmallDisk(path.join(dir, 'probe'));

function caught(action: () => void): FileWriteError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(FileWriteError);
    return error as FileWriteError;
  }
  throw new Error('the write succeeded');
}

describe('durable writes', () => {
  it('replace a file whole and leave no temporary file behind', () => {
    const file = path.join(dir, 'config.json');
    writeFileDurable(file, 'old');
    writeFileDurable(file, new Uint8Array([110, 101, 119]));
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('name the file and the reason when a write fails', () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    expect(caught(() => writeFileDurable(path.join(blocker, 'metrics.jsonl'), 'y')).message)
      .toBe(`cannot write ${path.join(blocker, 'metrics.jsonl')}: a part of the path is a file, not a folder (ENOTDIR)`);
    expect(caught(() => makeFolder(path.join(blocker, 'checkpoints'))).message)
      .toBe(`cannot create the folder ${path.join(blocker, 'checkpoints')}: a part of the path is a file, not a folder (ENOTDIR)`);
  });

  it.runIf(fullDiskTests)('keep the old file whole when the disk fills mid-write, and name the file (needs root to mount a small tmpfs)', () => {
    const disk = smallDisk(path.join(dir, 'disk'), 256)!;
    try {
      const file = path.join(disk.dir, 'iter-000010.flowtune');
      writeFileDurable(file, Buffer.alloc(100 * 1024, 1));
      const error = caught(() => writeFileDurable(file, Buffer.alloc(200 * 1024, 2)));
      expect(error.message).toBe(`cannot write ${file}: no space left on the device (ENOSPC)`);
      expect(error.code).toBe('ENOSPC');
      // The previous checkpoint is intact under its name, and the half-written one is gone.
      expect(readFileSync(file)).toEqual(Buffer.alloc(100 * 1024, 1));
      expect(readdirSync(disk.dir)).toEqual(['iter-000010.flowtune']);
    } finally {
      disk.unmount();
    }
  });

  it.runIf(fullDiskTests)('cut a failed append back, so metrics.jsonl ends with a whole line (needs root to mount a small tmpfs)', () => {
    const disk = smallDisk(path.join(dir, 'disk2'), 64)!;
    try {
      const file = path.join(disk.dir, 'metrics.jsonl');
      appendFileDurable(file, '{"progress/iteration":1}\n');
      const error = caught(() => appendFileDurable(file, `{"x":"${'a'.repeat(100 * 1024)}"}\n`));
      expect(error.code).toBe('ENOSPC');
      expect(readFileSync(file, 'utf8')).toBe('{"progress/iteration":1}\n');
    } finally {
      disk.unmount();
    }
  });
});
