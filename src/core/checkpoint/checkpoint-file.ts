/**
 * One checkpoint file as every host sees it (DESIGN.md §16 "One checkpoint file"): bytes in, the
 * header parsed and checked once (layout, metadata, format version, task when expected), and the
 * policy family, task, observation and action sizes and the declared architecture read once. No
 * tensor value is decoded here; a family's decoder reads them from this value, never from the bytes again.
 */
import { CheckpointError, isFlowtuneError } from '../errors';
import { resolveGaussianOptions, type GaussianPolicyOptions } from '../gaussian/gaussian-options';
import { obsFrameSize, resolveFlowPolicyOptions, type FlowPolicyOptions } from '../policy/options';
import { gaussianParameterShapes } from '../gaussian/gaussian-options';
import { expectedParameterShapes } from '../policy/param-shapes';
import { checkSource, readChecked, type CheckedSource, type DecodedFlowtune } from './checkpoint-reader';
import { parseFlowtuneFile } from './flowtune-file';
import type { FlowtuneMetadata } from './metadata';
import { parseTfjsFiles } from './tfjs-format';

/** A checkpoint as files: a .flowtune, or a tfjs model.json with its weight file. */
export type CheckpointFiles =
  | { kind: 'flowtune'; name: string; bytes: Uint8Array }
  | { kind: 'tfjs'; name: string; modelJson: string; weights: Uint8Array };

interface CheckpointFileBase {
  name: string;
  format: CheckpointFiles['kind'];
  metadata: FlowtuneMetadata;
  task: string;
  /** Values in one observation frame and in one action, as the architecture declares them. */
  shapes: { obsFrameSize: number; actionDim: number };
  checked: CheckedSource;
  data: Uint8Array;
}

/** A checkpoint file whose header was parsed and checked once; its tensors are not decoded yet. */
export type CheckpointFile =
  | (CheckpointFileBase & { kind: 'flow' | 'diffusion'; architecture: FlowPolicyOptions })
  | (CheckpointFileBase & { kind: 'gaussian'; architecture: GaussianPolicyOptions });

const fieldOf = (error: unknown) => (isFlowtuneError(error) && 'field' in error ? String((error as { field: string }).field) : 'architecture');

/** The flow architecture a checkpoint declares, validated like a hand-built one. */
export function flowArchitectureOf(metadata: FlowtuneMetadata): FlowPolicyOptions {
  const { denoise_steps: _k, n_action_steps: _n, kind, ...rest } = metadata.architecture as Record<string, unknown>;
  // The diffusion family (§17) keeps the same nets, predicting ε: the kind and the prediction say the same thing.
  if ((kind === 'diffusion') !== (rest.prediction === 'epsilon')) {
    throw new CheckpointError(`checkpoint architecture kind '${String(kind ?? 'flow')}' does not match its prediction '${String(rest.prediction ?? 'velocity')}' (a diffusion policy predicts epsilon)`);
  }
  try {
    return resolveFlowPolicyOptions(rest as unknown as FlowPolicyOptions);
  } catch (error) {
    throw new CheckpointError(`checkpoint architecture field '${fieldOf(error)}' is invalid: ${(error as Error).message}`);
  }
}

/** The Gaussian architecture a checkpoint declares (`architecture.kind = 'gaussian'`). */
export function gaussianArchitectureOf(metadata: FlowtuneMetadata): GaussianPolicyOptions {
  const architecture = metadata.architecture as Record<string, unknown>;
  try {
    return resolveGaussianOptions({ kind: 'gaussian', obsDim: architecture.obs_dim as number, actionDim: architecture.action_dim as number, hidden: architecture.hidden as number[] });
  } catch (error) {
    throw new CheckpointError(`checkpoint architecture field '${fieldOf(error)}' is invalid: ${(error as Error).message}`);
  }
}

/** The policy family a checkpoint's metadata declares: `architecture.kind`, flow when absent. */
export function checkpointKind(metadata: FlowtuneMetadata): CheckpointFile['kind'] {
  const kind = (metadata.architecture as { kind?: unknown }).kind;
  if (kind === undefined || kind === 'flow') return 'flow';
  if (kind === 'gaussian' || kind === 'diffusion') return kind;
  throw new CheckpointError(`checkpoint architecture kind '${String(kind)}' is not a policy family this build knows (flow, diffusion, gaussian)`);
}

/**
 * Parses and checks a checkpoint's header once: layout, metadata, format version, task (when
 * `expectedTask` is given), its family and declared architecture. No tensor value is read.
 */
export function parseCheckpointFile(files: CheckpointFiles, options: { expectedTask?: string } = {}): CheckpointFile {
  const source = files.kind === 'flowtune' ? parseFlowtuneFile(files.bytes) : parseTfjsFiles(files.modelJson, files.weights);
  const checked = checkSource(source, options.expectedTask);
  const { metadata } = checked;
  const base = { name: files.name, format: files.kind, metadata, task: metadata.task, checked, data: source.data };
  if (checkpointKind(metadata) === 'gaussian') {
    const architecture = gaussianArchitectureOf(metadata);
    return { ...base, kind: 'gaussian', architecture, shapes: { obsFrameSize: architecture.obsDim, actionDim: architecture.actionDim } };
  }
  const architecture = flowArchitectureOf(metadata);
  return { ...base, kind: architecture.prediction === 'epsilon' ? 'diffusion' : 'flow', architecture, shapes: { obsFrameSize: obsFrameSize(architecture), actionDim: architecture.actionDim } };
}

/** Every tensor of the file, checked against the shapes its declared architecture gives: the file's contents whole (a format conversion copies them). */
export function decodeFileContents(file: CheckpointFile): DecodedFlowtune {
  const shapes = file.kind === 'gaussian' ? gaussianParameterShapes(file.architecture) : expectedParameterShapes(file.architecture);
  return readChecked(file.checked, file.data, { expectedShapes: shapes });
}
