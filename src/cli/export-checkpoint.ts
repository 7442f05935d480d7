/**
 * Deployable exports of a `.flowtune` checkpoint (DESIGN.md §6): the deterministic policy as one
 * ONNX graph, or the Flowtune tfjs weights manifest (weights and optimizer state, not a graph).
 */
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { decodeFlowtune, inspectFlowtune } from '../core/checkpoint/flowtune-file';
import { exportPolicyOnnx, ONNX_OPSET } from '../core/checkpoint/onnx/export-onnx';
import { onnxPolicySpec } from '../core/checkpoint/onnx/export-spec';
import { exportTfjs } from '../core/checkpoint/tfjs-format';
import { applyOverrides, defaultConfig, type RunConfig } from '../core/config';
import { TASK_NAMES } from '../core/envs/task-types';
import { CheckpointError, ConfigError } from '../core/errors';
import { expectedParameterShapes } from '../core/policy/param-shapes';
import { loadRunCheckpoint, openCheckpointFile, readCheckpointFile } from './run-setup';

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

/** The defaults on the checkpoint's own task: an export has no run to fit, only its own env. */
function configForCheckpointTask(bytes: Uint8Array): RunConfig {
  const { task } = inspectFlowtune(bytes).metadata;
  if (!(TASK_NAMES as readonly string[]).includes(task)) {
    throw new CheckpointError(`checkpoint is for task '${task}', which this build does not have (tasks: ${TASK_NAMES.join(', ')})`);
  }
  return applyOverrides(defaultConfig(), [`task=${task}`]);
}

/** Writes the ONNX policy of `ckptPath` to `outPath`; returns a one-line summary. */
export async function exportCheckpointOnnx(ckptPath: string, outPath: string): Promise<string> {
  const { loaded } = fromCheckpointSettings(() => loadRunCheckpoint(ckptPath, configForCheckpointTask(readCheckpointFile(ckptPath)), []));
  try {
    const spec = onnxPolicySpec(loaded.bundle, loaded.metadata);
    const bytes = await exportPolicyOnnx(loaded.bundle, loaded.metadata);
    writeFileSync(outPath, bytes);
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
  const bytes = readCheckpointFile(ckptPath);
  // Validated like any run's checkpoint first; then the file's own contents are copied whole.
  const { checkpoint } = fromCheckpointSettings(() => openCheckpointFile(ckptPath, configForCheckpointTask(bytes), []));
  const decoded = decodeFlowtune(bytes, { expectedShapes: expectedParameterShapes(checkpoint.architecture) });
  const weightsFileName = `${basename(outPath).replace(/\.json$/i, '')}.bin`;
  const { modelJson, weightsBin } = exportTfjs(decoded, { weightsFileName });
  writeFileSync(outPath, modelJson);
  writeFileSync(join(dirname(outPath), weightsFileName), weightsBin);
  const optimizer = decoded.optimizer ? 'with its optimizer state' : 'the checkpoint holds no optimizer state';
  return `wrote ${outPath} and ${weightsFileName}: weights for Flowtune, ${optimizer} (a weights manifest Flowtune reads back, not a runnable tfjs graph)`;
}
