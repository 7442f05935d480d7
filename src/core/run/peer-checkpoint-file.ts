/**
 * A peer's PyTorch checkpoint as our one checkpoint file (DESIGN.md §18): read safely, its layout matched to a task by
 * observation and action sizes, written as the `.flowtune` it would be had it been trained here, and parsed as any
 * other. Every host (CLI train/eval/export, the studio's drop) then opens it through open-checkpoint.ts unchanged.
 */
import { parseCheckpointFile, type CheckpointFile } from '../checkpoint/checkpoint-file';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { readPeerCheckpoint } from '../checkpoint/peers/peer-import';
import type { ImportedDiffusionPolicy, ImportedFlowPolicy, ImportedPeerPolicy, PeerCheckpointFiles } from '../checkpoint/peers/peer-policy';
import { flowMetadata } from '../checkpoint/policy-checkpoint';
import { defaultConfig, setField, validateConfig, type RunConfig } from '../config';
import { configActionDim } from '../envs/task-controls';
import { observationSpec } from '../envs/observation';
import { getTask, hasTask, taskNames } from '../envs/task-registry';
import { CheckpointError, ConfigError } from '../errors';
import { freshParameterValues } from '../policy/flow-policy';

export type { PeerCheckpointFiles } from '../checkpoint/peers/peer-policy';

/** A peer checkpoint opened as ours, with one line per thing read or assumed. */
export interface OpenedPeerCheckpoint {
  file: CheckpointFile;
  /** The `.flowtune` bytes it was parsed from (what a host stores as the selected model). */
  bytes: Uint8Array;
  notes: string[];
}

/** Observation and action sizes of a task's default state observation and control. */
function taskSizes(task: string): { obs: number; action: number } {
  const config = { ...defaultConfig(), task } as RunConfig;
  return { obs: observationSpec(getTask(task), 'state', 0).dim, action: configActionDim(config) };
}

/**
 * The task whose sizes fit the policy: the one named (`task`), checked; else `prefer` when it fits (the studio's task);
 * else the only registered one that fits.
 */
function matchTask(imported: ImportedPeerPolicy, label: string, task: string | undefined, prefer?: string): string {
  const { obsDim, actionDim } = imported.architecture;
  const describe = (name: string) => {
    const sizes = taskSizes(name);
    return `${name} gives ${sizes.obs} observations and takes ${sizes.action} actions`;
  };
  if (task !== undefined) {
    if (!hasTask(task)) throw new ConfigError('task', `task '${task}' is not loaded here`);
    const sizes = taskSizes(task);
    if (sizes.obs !== obsDim || sizes.action !== actionDim) {
      throw new CheckpointError(`${label} reads ${obsDim} observations and writes ${actionDim} actions, but ${describe(task)}`);
    }
    return task;
  }
  const fits = taskNames().filter((name) => {
    const sizes = taskSizes(name);
    return sizes.obs === obsDim && sizes.action === actionDim;
  });
  if (prefer !== undefined && fits.includes(prefer)) return prefer;
  if (fits.length === 1) return fits[0];
  if (fits.length === 0) {
    throw new CheckpointError(`${label} reads ${obsDim} observations and writes ${actionDim} actions, which no task here fits (${taskNames().map(describe).join('; ')})`);
  }
  throw new CheckpointError(`${label} fits ${fits.join(', ')} (${obsDim} observations, ${actionDim} actions); name one with task=`);
}

/** A run config that validates, or the one sentence of a CheckpointError. */
function validImportedConfig(config: RunConfig): RunConfig {
  try {
    return validateConfig(config);
  } catch (error) {
    throw new CheckpointError(`the settings read with the checkpoint do not make a run config: ${(error as Error).message}`);
  }
}

/** The run config of an imported peer policy: its task, state observations, the FlowMLP/DiffusionMLP layout and its chain. */
function importedPeerConfig(imported: ImportedFlowPolicy | ImportedDiffusionPolicy, task: string): RunConfig {
  const { architecture: arch, settings } = imported;
  const config = setField(defaultConfig(), 'task', task);
  return {
    ...config,
    env: { ...config.env, obs_type: 'state' },
    policy: {
      ...config.policy,
      kind: imported.kind,
      velocity_net: 'reflow_mlp',
      horizon: arch.horizon,
      n_obs_steps: arch.nObsSteps,
      n_action_steps: settings.nActionSteps,
      denoise_steps: settings.denoiseSteps,
      denoised_clamp: settings.denoisedClamp,
      hidden: [...arch.velocityHidden],
      encoder_hidden: [...arch.encoderHidden],
      value_hidden: [...arch.valueHidden],
    },
  };
}

/** A ReinFlow policy's run config: its noise net's sizes and bounds, sampled with learned noise. */
function importedFlowConfig(imported: ImportedFlowPolicy, task: string): RunConfig {
  const config = importedPeerConfig(imported, task);
  const { settings } = imported;
  return validImportedConfig({
    ...config,
    policy: { ...config.policy, noise_head_hidden: [...imported.architecture.noiseHidden] },
    noise: { ...config.noise, method: 'noise', std_min: settings.stdMin, std_max: settings.stdMax },
  });
}

/** A DPPO policy's run config (DESIGN.md §17): its DDIM grid and DPPO's fine-tuning settings. */
function importedDiffusionConfig(imported: ImportedDiffusionPolicy, task: string): RunConfig {
  let config = importedPeerConfig(imported, task);
  config = { ...config, policy: { ...config.policy, ddim_steps: imported.settings.ddimSteps } };
  for (const { key, value } of imported.settings.fields) config = setField(config, key, value as never);
  return validImportedConfig(config);
}

/**
 * Opens a ReinFlow or DPPO `.pt` (with its normalization.npz and, when given, its Hydra config) as a checkpoint file of
 * task `task`, or of the one task its sizes fit: a flow policy (ReinFlow) or a diffusion policy (DPPO). What the file
 * does not hold (a pretraining file's noise net and critic) starts as a fresh policy of seed 0 would; a fine-tuned
 * DPPO file's frozen base net becomes the reference weights. Nothing from the file is run; every problem is one
 * CheckpointError.
 */
export function openPeerCheckpoint(files: PeerCheckpointFiles, options: { task?: string; prefer?: string } = {}): OpenedPeerCheckpoint {
  const imported = readPeerCheckpoint(files);
  const label = files.checkpoint.name;
  const task = matchTask(imported, label, options.task, options.prefer);
  const config = imported.kind === 'diffusion' ? importedDiffusionConfig(imported, task) : importedFlowConfig(imported, task);
  const tensors = freshParameterValues(imported.architecture, 0);
  for (const [name, entry] of imported.weights) tensors.set(name, entry);
  // The reference is a whole copy of the model: the base net's denoising tensors, the rest as the main weights.
  const reference = imported.kind === 'diffusion' && imported.reference ? new Map([...tensors, ...imported.reference]) : undefined;
  const metadata = flowMetadata({
    options: imported.architecture,
    normalizer: imported.normalizer,
    task,
    stage: imported.stage,
    config,
    // The peer's own counters, for the record: with no optimizer state in the file, a run from it counts from 0.
    training: { step: 0, iteration: imported.training.iteration, env_steps: imported.training.envSteps },
  });
  const bytes = encodeFlowtune({ tensors, metadata, ...(reference ? { reference } : {}) });
  const steps = imported.kind === 'diffusion' ? `T = ${imported.settings.denoiseSteps}${imported.settings.ddimSteps > 0 ? ` (DDIM ${imported.settings.ddimSteps})` : ''}` : `K = ${imported.settings.denoiseSteps}`;
  const notes = [...imported.notes, `${label} fits task ${task}: ${imported.architecture.obsDim} observations, ${imported.architecture.actionDim} actions, chunks of ${imported.architecture.horizon}, ${steps}`];
  return { file: parseCheckpointFile({ kind: 'flowtune', name: label, bytes }), bytes, notes };
}
