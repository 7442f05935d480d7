/**
 * Deployable exports of a `.flowtune` checkpoint (DESIGN.md §6, §16): the deterministic policy of
 * any family as one ONNX graph, or the Flowtune tfjs weights manifest (weights and optimizer state,
 * not a graph). The file is read once and its header parsed once. A checkpoint of a task this
 * process has loaded is also checked against that task; one of a task that is not loaded exports
 * from the shapes it declares, since the graph needs nothing else.
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { dppoExport } from '../core/checkpoint/peers/dppo-export';
import { reinflowExport } from '../core/checkpoint/peers/reinflow-export';
import { writeNpz } from '../core/checkpoint/torch/npz-writer';
import { writeTorchCheckpoint, type TorchWritable } from '../core/checkpoint/torch/torch-pt-writer';
import type { NpyArray } from '../core/checkpoint/torch/npy-writer';
import { decodeFileContents, type CheckpointFile } from '../core/checkpoint/checkpoint-file';
import { ONNX_OPSET } from '../core/checkpoint/onnx/export-onnx';
import { exportTfjs } from '../core/checkpoint/tfjs-format';
import { applyOverrides, defaultConfig } from '../core/config';
import { hasTask } from '../core/envs/task-registry';
import { CheckpointError, ConfigError } from '../core/errors';
import { loadPolicy } from '../core/run/families';
import type { FamilyCheckpoint } from '../core/run/family-checkpoint';
import { decodeCheckpointAlone, openCheckpoint } from '../core/run/open-checkpoint';
import { runConfigForCheckpoint } from '../core/run/checkpoint-run-config';
import { writeFileDurable } from './durable-write';
import type { PeerFileArgs } from './peer-files';
import { loadCheckpointFile } from './run-setup';
import { metadataWithSampler } from '../core/run/export-settings';

/**
 * `open` with the checkpoint's own settings; an export takes no overrides, so a config problem
 * is the file's (exit 1 like any unusable checkpoint, not 2 like a bad command line).
 */
function fromCheckpointSettings<T>(open: () => T): T {
  try {
    return open();
  } catch (error) {
    if (error instanceof ConfigError) throw new CheckpointError(`the checkpoint's stored settings are invalid: ${error.message}`);
    throw error;
  }
}

/** The run config the checkpoint's own settings give, when its task is loaded here. */
const ownConfig = (file: CheckpointFile) => runConfigForCheckpoint(applyOverrides(defaultConfig(), [`task=${file.task}`]), file.metadata, []);

/**
 * The file decoded for export: against its task's env when that task is loaded, else against its own shapes. Sampler
 * overrides (`policy.denoise_steps=K`, ...) apply as in `train` and `eval`; a bad one is the command line's (exit 2).
 */
function decodeForExport(file: CheckpointFile, overrides: readonly string[]): { checkpoint: FamilyCheckpoint; config: ReturnType<typeof defaultConfig> } {
  const base = applyOverrides(defaultConfig(), [`task=${file.task}`]);
  if (hasTask(file.task)) {
    if (overrides.length === 0) return fromCheckpointSettings(() => openCheckpoint(file, base, []));
    fromCheckpointSettings(() => openCheckpoint(file, base, []));
    return openCheckpoint(file, base, overrides);
  }
  if (overrides.length > 0) throw new ConfigError('task', `${overrides.join(' ')} needs the checkpoint's task '${file.task}' loaded here: add task=./path/ to it`);
  return { checkpoint: decodeCheckpointAlone(file), config: defaultConfig() };
}

/** Writes the ONNX policy of `ckptPath` (with `overrides` of its sampler) to `outPath`; returns a one-line summary. */
export async function exportCheckpointOnnx(ckptPath: string, outPath: string, overrides: readonly string[] = [], peer?: PeerFileArgs): Promise<string> {
  const file = loadCheckpointFile(ckptPath, { peer });
  const { checkpoint, config } = decodeForExport(file, overrides);
  const policy = loadPolicy(checkpoint, config);
  try {
    const metadata = overrides.length > 0 ? metadataWithSampler(checkpoint.metadata, config) : checkpoint.metadata;
    const { bytes, description } = await policy.exportOnnx(metadata);
    writeFileDurable(outPath, bytes);
    return `wrote ${outPath} (${bytes.byteLength} bytes, opset ${ONNX_OPSET}): ${description}`;
  } finally {
    policy.dispose();
  }
}

/**
 * Writes the tfjs weights manifest `outPath` (model.json) and its weights beside it (`<name>.bin`),
 * with everything the checkpoint holds; returns a one-line summary.
 */
export function exportCheckpointTfjs(ckptPath: string, outPath: string, peer?: PeerFileArgs): string {
  const file = loadCheckpointFile(ckptPath, { peer });
  // The stored settings are checked like any run's when the task is loaded; the file's contents are then copied whole.
  if (hasTask(file.task)) fromCheckpointSettings(() => ownConfig(file));
  const decoded = decodeFileContents(file);
  const weightsFileName = `${basename(outPath).replace(/\.json$/i, '')}.bin`;
  const { modelJson, weightsBin } = exportTfjs(decoded, { weightsFileName });
  writeFileDurable(outPath, modelJson);
  writeFileDurable(join(dirname(outPath), weightsFileName), weightsBin);
  const optimizer = decoded.optimizer ? 'with its optimizer state' : 'the checkpoint holds no optimizer state';
  return `wrote ${outPath} and ${weightsFileName}: weights for Flowtune, ${optimizer} (a weights manifest Flowtune reads back, not a runnable tfjs graph)`;
}

/** Writes a peer's files: `outDir/<name>.pt` (named after the checkpoint) and `outDir/normalization.npz`; returns the summary. */
function writePeerFiles(ckptPath: string, outDir: string, exported: { checkpoint: TorchWritable; normalization: Record<string, NpyArray>; notes: string[] }): string {
  const base = basename(ckptPath).replace(/\.(flowtune|pt|pth)$/i, '');
  const ptPath = join(outDir, `${base}.pt`);
  const npzPath = join(outDir, 'normalization.npz');
  mkdirSync(outDir, { recursive: true });
  writeFileDurable(ptPath, writeTorchCheckpoint(exported.checkpoint, { label: ptPath, archiveName: base }));
  writeFileDurable(npzPath, writeNpz(exported.normalization, { label: npzPath }));
  return [`wrote ${ptPath} and ${npzPath}`, ...exported.notes].join('\n');
}

/**
 * Writes a ReinFlow-layout policy back as ReinFlow's own files (DESIGN.md §18 "Going back"): `outDir/<name>.pt`, which
 * `torch.load(weights_only=True)` and `load_state_dict(strict=True)` read, and `outDir/normalization.npz`.
 */
export function exportCheckpointReinflow(ckptPath: string, outDir: string, peer?: PeerFileArgs): string {
  const file = loadCheckpointFile(ckptPath, { peer });
  if (hasTask(file.task)) fromCheckpointSettings(() => ownConfig(file));
  if (file.kind !== 'flow') throw new CheckpointError(`format=reinflow writes a flow policy, and ${file.name} holds a ${file.kind} policy${file.kind === 'diffusion' ? '; export it with format=dppo' : ''}`);
  const decoded = decodeFileContents(file);
  return writePeerFiles(ckptPath, outDir, reinflowExport({ name: file.name, architecture: file.architecture, tensors: decoded.tensors, metadata: decoded.metadata, reference: decoded.reference }));
}

/**
 * Writes a diffusion policy of DPPO's layout back as DPPO's own files (DESIGN.md §18 "Going back"): `outDir/<name>.pt`
 * (DiffusionModel's or PPODiffusion's state dict, which `torch.load(weights_only=True)` and `load_state_dict(strict=True)`
 * read) and `outDir/normalization.npz`.
 */
export function exportCheckpointDppo(ckptPath: string, outDir: string, peer?: PeerFileArgs): string {
  const file = loadCheckpointFile(ckptPath, { peer });
  if (hasTask(file.task)) fromCheckpointSettings(() => ownConfig(file));
  if (file.kind !== 'diffusion') throw new CheckpointError(`format=dppo writes a diffusion policy, and ${file.name} holds a ${file.kind} policy${file.kind === 'flow' ? '; export it with format=reinflow' : ''}`);
  const decoded = decodeFileContents(file);
  return writePeerFiles(ckptPath, outDir, dppoExport({ name: file.name, architecture: file.architecture, tensors: decoded.tensors, metadata: decoded.metadata, reference: decoded.reference }));
}
