/**
 * Which dropped files make a peer's checkpoint (DESIGN.md §18): a ReinFlow or DPPO `.pt`, its `normalization.npz` and, when
 * dropped with them, its run's Hydra config (`.hydra/config.yaml`). The Model panel collects the files, loose or a
 * folder's, and this picks them by name; nothing is read here. The trainer converts the pick (peer-drop.ts).
 */
import { isPeerCheckpointName } from '../checkpoint/peers/peer-file-names';

/** What the Model panel's drop and picker take besides our own checkpoint files. */
export const PEER_DROP_EXTENSIONS = ['.pt', '.pth', '.npz', '.yaml', '.yml'] as const;

export interface PeerDropPick<T> {
  checkpoint: T;
  normalization: T;
  config?: T;
}

/** A path's last segment. */
export function baseName(path: string): string {
  return path.split(/[\\/]+/).filter(Boolean).pop() ?? path;
}

/** A path without its leading '/' (a dropped entry's fullPath starts with one). */
export function dropPath(path: string): string {
  return path.replace(/^[\\/]+/, '');
}

const depth = (path: string) => dropPath(path).split(/[\\/]+/).length;
const named = (files: readonly { path: string }[]) => files.map((file) => baseName(file.path)).join(', ');
/** Shallowest first, then by path: a run folder's own file before one in a subfolder. */
const byDepth = <T extends { path: string }>(files: readonly T[]) =>
  [...files].sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));

function pickNormalization<T extends { path: string }>(checkpoint: string, files: readonly T[]): T | string {
  const npz = files.filter((file) => /\.npz$/i.test(file.path));
  const exact = byDepth(npz.filter((file) => baseName(file.path).toLowerCase() === 'normalization.npz'));
  if (exact.length > 0) return exact[0];
  const likely = npz.filter((file) => /normali[sz]ation/i.test(baseName(file.path)));
  if (likely.length === 1) return likely[0];
  if (npz.length === 1) return npz[0];
  if (npz.length === 0) return `${checkpoint} needs its normalization.npz: drop them together (or their folder)`;
  return `${checkpoint} needs its normalization.npz, and the drop holds ${named(npz)} without one of that name: drop the one that goes with it`;
}

function pickConfig<T extends { path: string }>(files: readonly T[]): T | string | undefined {
  const yaml = files.filter((file) => /\.ya?ml$/i.test(file.path));
  const hydra = byDepth(yaml.filter((file) => /(^|[\\/])\.hydra[\\/]config\.yaml$/i.test(file.path)));
  if (hydra.length > 0) return hydra[0];
  const config = byDepth(yaml.filter((file) => baseName(file.path).toLowerCase() === 'config.yaml'));
  if (config.length > 0) return config[0];
  if (yaml.length <= 1) return yaml[0];
  return `the drop holds ${named(yaml)} but no config.yaml: drop the run's .hydra/config.yaml with the checkpoint, or none`;
}

/**
 * The peer checkpoint among dropped files: undefined when none is a `.pt`, else its pick, or one sentence saying what
 * is missing or which of several is meant.
 */
export function pickPeerDrop<T extends { path: string }>(files: readonly T[]): PeerDropPick<T> | string | undefined {
  const checkpoints = byDepth(files.filter((file) => isPeerCheckpointName(file.path)));
  if (checkpoints.length === 0) return undefined;
  if (checkpoints.length > 1) {
    return `the drop holds ${checkpoints.length} checkpoints (${named(checkpoints)}): drop one .pt with its normalization.npz`;
  }
  const checkpoint = checkpoints[0];
  const normalization = pickNormalization(baseName(checkpoint.path), files);
  if (typeof normalization === 'string') return normalization;
  const config = pickConfig(files);
  if (typeof config === 'string') return config;
  return { checkpoint, normalization, ...(config ? { config } : {}) };
}
