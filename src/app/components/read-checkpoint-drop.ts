/**
 * The Model panel's drop and picker: collects the dropped files (loose, or a folder's, walked with the same reader as
 * run and task folders) and hands the trainer a checkpoint of ours or a peer's `.pt` with its normalization.npz and
 * Hydra config. Which file is which is core/studio's pick; converting is the trainer's.
 */
import { baseName, dropPath, PEER_DROP_EXTENSIONS, pickPeerDrop } from '../../core/studio/peer-drop-files';
import type { DroppedCheckpoint } from '../../protocol/trainer-api';
import { unzipStored } from '../export/zip-store';
import { collectFiles, type FoundFile } from '../runs/read-dropped-folder';

/** Every file the panel reads: ours and a peer's. */
export const CHECKPOINT_EXTENSIONS = ['.flowtune', '.json', '.bin', '.zip', ...PEER_DROP_EXTENSIONS] as const;

const checkpointFile = (name: string) => CHECKPOINT_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension));
/** Folders are walked (a run's `.hydra` too), except installed packages and version control. */
const accepted = (entry: FileSystemEntry) => (entry.isDirectory ? entry.name !== 'node_modules' && entry.name !== '.git' : checkpointFile(entry.name));

/** The files of a drop's entries (folders walked), or the sentence why they could not be read. */
export async function droppedCheckpointFiles(entries: readonly FileSystemEntry[]): Promise<FoundFile[] | string> {
  const found: FoundFile[] = [];
  try {
    for (const entry of entries) await collectFiles(entry, found, accepted);
  } catch (error) {
    return `The dropped folder could not be read (${error instanceof Error ? error.message : String(error)}); choose its files with the picker instead.`;
  }
  return found;
}

/** Files a picker (or a drop without entries) gave. */
export function chosenCheckpointFiles(files: readonly File[]): FoundFile[] {
  return files.map((file) => ({ path: file.webkitRelativePath || file.name, size: file.size, file }));
}

/** A .flowtune file, a ReinFlow .pt with its normalization.npz, a model.json with its .bin, or Export's .zip; a sentence otherwise. */
export async function filesToCheckpoint(found: readonly FoundFile[]): Promise<DroppedCheckpoint | string> {
  const named = (pattern: RegExp) => found.find(({ path }) => pattern.test(path))?.file;
  const flowtune = named(/\.flowtune$/i);
  if (flowtune) return { kind: 'flowtune', name: flowtune.name, bytes: new Uint8Array(await flowtune.arrayBuffer()) };
  const peer = pickPeerDrop(found);
  if (typeof peer === 'string') return peer;
  if (peer) {
    const bytesOf = async ({ file }: FoundFile) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
    return {
      kind: 'reinflow',
      checkpoint: await bytesOf(peer.checkpoint),
      normalization: await bytesOf(peer.normalization),
      ...(peer.config ? { config: { name: dropPath(peer.config.path), text: await peer.config.file.text() } } : {}),
    };
  }
  const zip = named(/\.zip$/i);
  if (zip) return zipToCheckpoint(zip);
  const modelJson = named(/\.json$/i);
  const weights = named(/\.bin$/i);
  if (modelJson && weights) {
    return { kind: 'tfjs', name: modelJson.name, modelJson: await modelJson.text(), weights: new Uint8Array(await weights.arrayBuffer()) };
  }
  if (modelJson) return `${modelJson.name} needs its weights file: drop the model.json together with its .bin`;
  const names = found.map(({ path }) => baseName(path)).join(', ') || 'the drop';
  return `${names} is not a checkpoint: drop a .flowtune file, a ReinFlow .pt with its normalization.npz, or a tfjs model.json with its .bin (or their .zip)`;
}

/** Export's tfjs archive: a stored .zip holding a model.json and its .bin. */
async function zipToCheckpoint(zip: File): Promise<DroppedCheckpoint | string> {
  const entries = unzipStored(new Uint8Array(await zip.arrayBuffer()));
  if (typeof entries === 'string') return `${zip.name}: ${entries}`;
  const json = [...entries.keys()].find((name) => name.endsWith('.json'));
  const bin = [...entries.keys()].find((name) => name.endsWith('.bin'));
  if (!json || !bin) return `${zip.name} holds no model.json with its .bin: drop the archive Export → Flowtune weights (tfjs) gives`;
  return { kind: 'tfjs', name: zip.name, modelJson: new TextDecoder().decode(entries.get(json)), weights: entries.get(bin)! };
}
