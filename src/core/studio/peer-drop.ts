/**
 * A checkpoint dropped in the studio, opened once (DESIGN.md §16 "One checkpoint file", §18): our own files are parsed
 * as they are; a ReinFlow or DPPO `.pt` with its normalization.npz (and Hydra config) is converted into the `.flowtune` it
 * would be had it been trained here, matched to the studio's task when the sizes fit. From then on the trainer sees
 * only that `.flowtune` (the other-task offer, the selected model, autosave, export), under the `.pt`'s name.
 */
import { CheckpointError } from '../errors';
import { parseCheckpointFile, type CheckpointFile, type CheckpointFiles } from '../run/open-checkpoint';
import { openPeerCheckpoint } from '../run/peer-checkpoint-file';
import type { DroppedCheckpoint } from '../../protocol/run-control-api';

export interface OpenedDrop {
  /** The files the trainer keeps: the drop itself, or the `.flowtune` a peer checkpoint became. */
  files: CheckpointFiles;
  file: CheckpointFile;
  /** What was read and what was assumed, one short line each (empty for our own files). */
  notes: string[];
}

/** The command line's way of naming a file, said as the studio takes it: by dropping it. */
function inStudioWords(sentence: string): string {
  return sentence
    .replace(/give (its Hydra config with )?peer_config=FILE\.yaml/g, "drop the run's .hydra/config.yaml with it")
    .replace(/put it beside the checkpoint or give normalization=FILE\.npz/g, 'drop them together (or their folder)')
    .replace(/; name one with task=$/, ': choose one of them as the task, then drop it again');
}

/** Opens a drop as a checkpoint file; a peer checkpoint becomes a `.flowtune` of `studioTask` when its sizes fit it. */
export function openDroppedCheckpoint(dropped: DroppedCheckpoint, studioTask: string): OpenedDrop {
  if (dropped.kind !== 'reinflow') return { files: dropped, file: parseCheckpointFile(dropped), notes: [] };
  const { kind: _kind, ...peerFiles } = dropped;
  try {
    const opened = openPeerCheckpoint(peerFiles, { prefer: studioTask });
    const name = dropped.checkpoint.name;
    const read = [dropped.normalization?.name, dropped.config?.name].filter((file): file is string => file !== undefined);
    return {
      files: { kind: 'flowtune', name, bytes: opened.bytes },
      file: opened.file,
      notes: [`${name}: read with ${read.join(' and ')}`, ...opened.notes.map(inStudioWords)],
    };
  } catch (error) {
    if (error instanceof CheckpointError) throw new CheckpointError(inStudioWords(error.message));
    throw error;
  }
}
