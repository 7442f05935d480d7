/**
 * Reads dropped or chosen run and sweep folders into the text files the trainer worker imports.
 * Directories are walked with the File and Directory Entries API (the only way a drop exposes a
 * folder's contents); a folder picker's files carry their paths in `webkitRelativePath`.
 */
import type { DroppedFile } from '../../protocol/trainer-api';
import { IMPORTED_FILE_NAMES, selectImportFiles } from './import-files';

export type FolderRead = { files: DroppedFile[] } | { problem: string };

export interface FoundFile {
  path: string;
  size: number;
  file: File;
}

/**
 * The entries of a drop. Call it inside the drop handler, before any await: the browser empties
 * the DataTransfer once the event has been handled.
 */
export function droppedEntries(data: DataTransfer): FileSystemEntry[] {
  const entries: FileSystemEntry[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) entries.push(entry);
  }
  return entries;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every child of a directory: readEntries hands them out in batches, and an empty batch ends the list. */
async function childrenOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const children: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return children;
    children.push(...batch);
  }
}

/** The files under `entry` that `accept` keeps (others are not even opened); a folder it refuses is not walked. */
export async function collectFiles(entry: FileSystemEntry, found: FoundFile[], accept: (entry: FileSystemEntry) => boolean): Promise<void> {
  if (entry.isDirectory) {
    if (!accept(entry)) return;
    for (const child of await childrenOf(entry as FileSystemDirectoryEntry)) await collectFiles(child, found, accept);
  } else if (entry.isFile && accept(entry)) {
    const file = await fileOf(entry as FileSystemFileEntry);
    found.push({ path: entry.fullPath, size: file.size, file });
  }
}

/** Run and sweep folders: every folder is walked, and only the files an import reads are opened. */
const importable = (entry: FileSystemEntry) => entry.isDirectory || IMPORTED_FILE_NAMES.has(entry.name);

async function readSelected(found: readonly FoundFile[]): Promise<FolderRead> {
  const selection = selectImportFiles(found);
  if ('problem' in selection) return selection;
  const files = await Promise.all(selection.files.map(async ({ path, file }) => ({ path, text: await file.text() })));
  return { files };
}

/** The importable files of dropped folders (or files), paths starting at each dropped item's name. */
export async function readDroppedEntries(entries: readonly FileSystemEntry[]): Promise<FolderRead> {
  const found: FoundFile[] = [];
  try {
    for (const entry of entries) await collectFiles(entry, found, importable);
  } catch (error) {
    return { problem: `The dropped folder could not be read (${error instanceof Error ? error.message : String(error)}); try the Import folder button.` };
  }
  return readSelected(found);
}

/** The importable files a folder picker (`webkitdirectory`) returned. */
export function readChosenFiles(files: readonly File[]): Promise<FolderRead> {
  return readSelected(files.map((file) => ({ path: file.webkitRelativePath || file.name, size: file.size, file })));
}
