/**
 * A peer's PyTorch checkpoint on disk (DESIGN.md §18): the `.pt`, its `normalization.npz` (beside it unless named) and
 * its run's Hydra config (`.hydra/config.yaml` beside or above it unless named), opened as our checkpoint file.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CheckpointFile } from '../core/checkpoint/checkpoint-file';
import { CheckpointError } from '../core/errors';
import { isPeerCheckpointName } from '../core/checkpoint/peers/peer-file-names';
import { openPeerCheckpoint } from '../core/run/peer-checkpoint-file';
import { UsageError } from './cli-args';

/** The command-line keys that go with a peer checkpoint. */
export const PEER_FILE_SPEC = {
  normalization: { kind: 'string', default: '', doc: "with a ReinFlow or DPPO .pt: its normalization.npz, when it is not beside the checkpoint" },
  peer_config: { kind: 'string', default: '', doc: "with a ReinFlow or DPPO .pt: its run's Hydra config, when no .hydra/config.yaml is beside or above the checkpoint" },
} as const;

export interface PeerFileArgs {
  normalization: string;
  peer_config: string;
}

/** Levels above the checkpoint searched for `.hydra/config.yaml` (ReinFlow and DPPO save to <logdir>/checkpoint/state_N.pt). */
const CONFIG_SEARCH_LEVELS = 3;

function readBytes(file: string, what: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CheckpointError(code === 'ENOENT' ? `${what} '${file}' does not exist` : `${what} '${file}' cannot be read (${code ?? 'unknown error'})`);
  }
}

function findHydraConfig(checkpoint: string): string | undefined {
  let folder = path.dirname(path.resolve(checkpoint));
  for (let level = 0; level <= CONFIG_SEARCH_LEVELS; level++) {
    const candidate = path.join(folder, '.hydra', 'config.yaml');
    if (existsSync(candidate)) return candidate;
    folder = path.dirname(folder);
  }
  return undefined;
}

/** Warns that the peer keys do nothing with a checkpoint of ours, or without one. */
export function warnUnusedPeerKeys(ckpt: string | undefined, args: PeerFileArgs): void {
  for (const key of ['normalization', 'peer_config'] as const) {
    if (!args[key] || (ckpt && isPeerCheckpointName(ckpt))) continue;
    console.error(`warning: ${key}=${args[key]} does nothing ${ckpt ? `with ${ckpt}` : 'without ckpt='}: it goes with a ReinFlow or DPPO .pt checkpoint`);
  }
}

/** The `.pt` with what travels beside it, as our checkpoint file of `task` (or the one task its sizes fit); notes go to stderr. */
export function openPeerCheckpointFile(file: string, args: PeerFileArgs, task?: string): CheckpointFile {
  const normalization = args.normalization || path.join(path.dirname(file), 'normalization.npz');
  if (!args.normalization && !existsSync(normalization)) {
    throw new UsageError('normalization', `${file} needs its normalization.npz: none is beside it; give normalization=FILE.npz`);
  }
  const configPath = args.peer_config || findHydraConfig(file);
  const opened = openPeerCheckpoint({
    checkpoint: { name: path.basename(file), bytes: readBytes(file, 'checkpoint file') },
    normalization: { name: path.basename(normalization), bytes: readBytes(normalization, 'normalization file') },
    ...(configPath ? { config: { name: configPath, text: new TextDecoder().decode(readBytes(configPath, 'config file')) } } : {}),
  }, { task });
  if (configPath) console.error(`read ${configPath}`);
  for (const note of opened.notes) console.error(note);
  return opened.file;
}
