/**
 * Durable writes (DESIGN.md §15): a file is written to a temporary name in its own folder,
 * flushed and renamed, so a reader never sees half a file under its final name, whatever
 * kills the process; appends are flushed line by line. A failed write is one sentence
 * naming the file and the reason.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A file or folder that could not be written; the message names it. */
export class FileWriteError extends Error {
  override readonly name = 'FileWriteError' as const;
  constructor(readonly file: string, readonly code: string | undefined, message: string) {
    super(message);
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  ENOENT: 'a folder on the path does not exist',
  EEXIST: 'a file is in the way of a folder',
  EFBIG: 'the file is larger than this system allows',
  EIO: 'the device reported an I/O error',
};

/** The error of a failed write to `file`, as one sentence. */
export function writeError(file: string, error: unknown, what = 'write'): FileWriteError {
  if (error instanceof FileWriteError) return error;
  const code = (error as { code?: string }).code;
  const reason = (code && REASONS[code]) ?? (error as Error).message ?? String(error);
  return new FileWriteError(file, code, `cannot ${what} ${file}: ${reason}${code ? ` (${code})` : ''}`);
}

/** Creates `dir` and its parents; a failure names the folder. */
export function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw writeError(dir, error, 'create the folder');
  }
}

function writeAll(fd: number, data: Uint8Array): void {
  for (let offset = 0; offset < data.length;) offset += writeSync(fd, data, offset, data.length - offset);
}

function syncFolder(dir: string): void {
  // Makes the rename itself durable; some file systems refuse to open a folder for this, which is harmless.
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // nothing was created there
  }
}

let tempCounter = 0;

/** Writes `data` to `file` atomically: a temporary file beside it, flushed, then renamed over it. */
export function writeFileDurable(file: string, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${tempCounter++}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w');
    writeAll(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    removeQuietly(temp);
    throw writeError(file, error);
  }
  syncFolder(dir);
}

/**
 * Appends `text` to `file` and flushes it. A failed append is cut back to the file's previous
 * length; a crash mid-append leaves at most a torn last line, which readers drop with a warning.
 */
export function appendFileDurable(file: string, text: string): void {
  let fd: number | undefined;
  let sizeBefore: number | undefined;
  try {
    fd = openSync(file, 'a');
    sizeBefore = fstatSync(fd).size;
    writeAll(fd, Buffer.from(text, 'utf8'));
    fsyncSync(fd);
  } catch (error) {
    if (fd !== undefined && sizeBefore !== undefined) {
      try {
        ftruncateSync(fd, sizeBefore);
      } catch {
        // the reader drops a torn last line anyway
      }
    }
    throw writeError(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
