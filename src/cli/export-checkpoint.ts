/**
 * Deployable exports of a `.flowtune` checkpoint (DESIGN.md §6): the deterministic policy as one
 * ONNX graph, or the Flowtune tfjs weights manifest (weights and optimizer state, not a graph).
 */
import { basename, dirname, join } from 'node:path';
import { readCheckpointHeader, type CheckpointHeader } from '../core/checkpoint/checkpoint-open';
import { readChecked } from '../core/checkpoint/checkpoint-reader';
import { bundleFromCheckpoint } from '../core/checkpoint/policy-checkpoint';
import { exportPolicyOnnx, ONNX_OPSET } from '../core/checkpoint/onnx/export-onnx';
import { onnxPolicySpec } from '../core/checkpoint/onnx/export-spec';
import { exportTfjs } from '../core/checkpoint/tfjs-format';
import { applyOverrides, defaultConfig } from '../core/config';
import { hasTask, taskNames } from '../core/envs/task-registry';
import { CheckpointError, ConfigError } from '../core/errors';
import { expectedParameterShapes } from '../core/policy/param-shapes';
import { openCheckpoint, type OpenedCheckpoint } from '../core/run/open-checkpoint';
import { writeFileDurable } from './durable-write';
import { isGaussianCheckpointFile, openGaussianCheckpointFile, readCheckpointFile } from './run-setup';
import { exportGaussianOnnx } from '../core/gaussian/gaussian-onnx';
import { peekFlowtuneMetadata } from '../core/gaussian/gaussian-checkpoint';
import { gaussianBundle } from '../core/run/open-gaussian-run';

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

/**
 * The checkpoint opened for its own task (an export has no run to fit, only its own env), its
 * header parsed once: the task comes from it, then the run layer maps and decodes it.
 */
function openForExport(ckptPath: string): OpenedCheckpoint & { header: CheckpointHeader } {
  const header = readCheckpointHeader({ kind: 'flowtune', name: ckptPath, bytes: readCheckpointFile(ckptPath) });
  const { task } = header.metadata;
  if (!hasTask(task)) {
    throw new CheckpointError(`checkpoint is for task '${task}', which is not loaded (known tasks: ${taskNames().join(', ')}); for a task of your own add task=./path/to/it/`);
  }
  return { header, ...fromCheckpointSettings(() => openCheckpoint(header, applyOverrides(defaultConfig(), [`task=${task}`]), [])) };
}

/** Writes the ONNX policy of `ckptPath` to `outPath`; returns a one-line summary. */
export async function exportCheckpointOnnx(ckptPath: string, outPath: string): Promise<string> {
  if (isGaussianCheckpointFile(ckptPath)) return exportGaussianCheckpointOnnx(ckptPath, outPath);
  const { checkpoint, config } = openForExport(ckptPath);
  const loaded = bundleFromCheckpoint(checkpoint, config.policy.detach_critic_input);
  try {
    const spec = onnxPolicySpec(loaded.bundle, loaded.metadata);
    const bytes = await exportPolicyOnnx(loaded.bundle, loaded.metadata);
    writeFileDurable(outPath, bytes);
    return `wrote ${outPath} (${bytes.byteLength} bytes, opset ${ONNX_OPSET}): obs [batch, ${spec.nObsSteps}, ${spec.obsFrameSize}] and x0 [batch, ${spec.horizon}, ${spec.actionDim}] → actions [batch, ${spec.nActionSteps}, ${spec.actionDim}] for ${spec.task} (${spec.controlMode}), ${spec.denoiseSteps} Euler steps`;
  } finally {
    loaded.bundle.policy.dispose();
  }
}

/**
 * Writes the tfjs weights manifest `outPath` (model.json) and its weights beside it (`<name>.bin`),
 * with everything the checkpoint holds; returns a one-line summary.
 */
export function exportCheckpointTfjs(ckptPath: string, outPath: string): string {
  // Validated like any run's checkpoint first; then the file's own contents are copied whole.
  const { header, checkpoint } = openForExport(ckptPath);
  const decoded = readChecked(header.checked, header.data, { expectedShapes: expectedParameterShapes(checkpoint.architecture) });
  const weightsFileName = `${basename(outPath).replace(/\.json$/i, '')}.bin`;
  const { modelJson, weightsBin } = exportTfjs(decoded, { weightsFileName });
  writeFileDurable(outPath, modelJson);
  writeFileDurable(join(dirname(outPath), weightsFileName), weightsBin);
  const optimizer = decoded.optimizer ? 'with its optimizer state' : 'the checkpoint holds no optimizer state';
  return `wrote ${outPath} and ${weightsFileName}: weights for Flowtune, ${optimizer} (a weights manifest Flowtune reads back, not a runnable tfjs graph)`;
}

/** The ONNX export of a Gaussian policy's checkpoint: its mean action. */
async function exportGaussianCheckpointOnnx(ckptPath: string, outPath: string): Promise<string> {
  const task = peekFlowtuneMetadata({ kind: 'flowtune', name: ckptPath, bytes: readCheckpointFile(ckptPath) }).task;
  if (!hasTask(task)) {
    throw new CheckpointError(`checkpoint is for task '${task}', which is not loaded (known tasks: ${taskNames().join(', ')}); for a task of your own add task=./path/to/it/`);
  }
  const { checkpoint, config } = fromCheckpointSettings(() => openGaussianCheckpointFile(ckptPath, applyOverrides(defaultConfig(), [`task=${task}`])));
  const bundle = gaussianBundle(config, checkpoint.options.obsDim, checkpoint.options.actionDim, checkpoint);
  try {
    const bytes = await exportGaussianOnnx(bundle, checkpoint.metadata);
    writeFileDurable(outPath, bytes);
    const { obsDim, actionDim } = checkpoint.options;
    return `wrote ${outPath} (${bytes.byteLength} bytes, opset ${ONNX_OPSET}): obs [batch, 1, ${obsDim}] → actions [batch, 1, ${actionDim}] for ${task}, the Gaussian policy's mean action`;
  } finally {
    bundle.policy.dispose();
  }
}
