/**
 * An exported `.onnx` policy opened for a run on the command line: read, checked against the
 * task and the env, with the config it runs under, and a live onnxruntime session. An image
 * policy's config takes its cameras, image size and channels from the Flowtune metadata, which
 * the read checked against the graph's images input, so evaluation feeds it the env's images.
 */
import type { OnnxPolicySpec } from '../core/checkpoint/onnx/export-spec';
import { readOnnxPolicy } from '../core/checkpoint/onnx/policy-metadata';
import { overrideKeys, type RunConfig } from '../core/config';
import { configActionDim } from '../core/envs/task-controls';
import { observationSpec } from '../core/envs/observation';
import { getTask } from '../core/envs/task-registry';
import { CheckpointError, ConfigError } from '../core/errors';
import { runConfigForCheckpoint } from '../core/run/checkpoint-run-config';
import { OnnxActor } from './onnx-actor';
import { readCheckpointFile } from './run-setup';

/**
 * The graph bakes in K, the executed steps, the denoised-action clamp and the observation clamp; an override of any cannot apply (ConfigError).
 * Without an override the config holds the file's own value, so a difference is the file's fault (CheckpointError).
 */
function checkBakedCounts(config: RunConfig, overrides: readonly string[], spec: OnnxPolicySpec): void {
  const baked = [
    ['policy.denoise_steps', config.policy.denoise_steps, spec.denoiseSteps],
    ['policy.n_action_steps', config.policy.n_action_steps, spec.nActionSteps],
    ['policy.denoised_clamp', config.policy.denoised_clamp, spec.denoisedClamp],
    ['policy.obs_clip', config.policy.obs_clip, spec.obsClip],
  ] as const;
  const overridden = new Set<string>(overrideKeys(overrides));
  for (const [key, asked, inGraph] of baked) {
    if (asked === inGraph) continue;
    if (overridden.has(key)) throw new ConfigError(key, `${key}=${asked} contradicts the ONNX graph, which has ${key}=${inGraph} built in; drop the override or export again from the .flowtune`);
    throw new CheckpointError(`the ONNX graph has ${key}=${inGraph} built in, but the Flowtune metadata it carries gives ${asked}; export it again from the .flowtune`);
  }
}

/** Opens `path` for a run on `base.task` with `overrides`; throws CheckpointError (or ConfigError for an override the graph cannot honour). */
export async function openOnnxPolicy(path: string, base: RunConfig, overrides: readonly string[]): Promise<{ actor: OnnxActor; config: RunConfig }> {
  const bytes = readCheckpointFile(path);
  const { spec, metadata } = readOnnxPolicy(bytes);
  if (spec.task !== base.task || metadata.task !== base.task) {
    throw new CheckpointError(`the ONNX policy is for task '${spec.task}' but the run is '${base.task}'`);
  }
  const config = runConfigForCheckpoint(base, metadata, overrides);
  checkBakedCounts(config, overrides, spec);
  const envFrame = observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points).dim;
  const envActionDim = configActionDim(config);
  if (envFrame !== spec.obsFrameSize || envActionDim !== spec.actionDim || config.policy.n_obs_steps !== spec.nObsSteps) {
    throw new CheckpointError(`the ONNX policy takes ${spec.nObsSteps} frames of ${spec.obsFrameSize} values and gives ${spec.actionDim}-D actions, but the env gives ${config.policy.n_obs_steps} frames of ${envFrame} and takes ${envActionDim}-D actions`);
  }
  return { actor: await OnnxActor.open(bytes, spec), config };
}
