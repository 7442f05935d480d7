/**
 * A peer's PyTorch checkpoint as our one checkpoint file (DESIGN.md §18): read safely, its layout matched to a task by
 * observation and action sizes, written as the `.flowtune` it would be had it been trained here, and parsed as any
 * other. Every host (CLI train/eval/export, the studio's drop) then opens it through open-checkpoint.ts unchanged.
 */
import { parseCheckpointFile, type CheckpointFile } from '../checkpoint/checkpoint-file';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { readReinflowCheckpoint, type ImportedPeerPolicy, type PeerCheckpointFiles } from '../checkpoint/peers/reinflow-import';
import { flowMetadata } from '../checkpoint/policy-checkpoint';
import { defaultConfig, setField, validateConfig, type RunConfig } from '../config';
import { configActionDim } from '../envs/task-controls';
import { observationSpec } from '../envs/observation';
import { getTask, hasTask, taskNames } from '../envs/task-registry';
import { CheckpointError, ConfigError } from '../errors';
import { freshParameterValues } from '../policy/flow-policy';

export type { PeerCheckpointFiles } from '../checkpoint/peers/reinflow-import';

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

/** The run config the imported policy was sampled with: its architecture and ReinFlow's sampler and noise settings. */
function importedConfig(imported: ImportedPeerPolicy, task: string): RunConfig {
  const { architecture: arch, settings } = imported;
  let config = setField(defaultConfig(), 'task', task);
  config = {
    ...config,
    env: { ...config.env, obs_type: 'state' },
    policy: {
      ...config.policy,
      kind: 'flow',
      velocity_net: 'reflow_mlp',
      horizon: arch.horizon,
      n_obs_steps: arch.nObsSteps,
      n_action_steps: settings.nActionSteps,
      denoise_steps: settings.denoiseSteps,
      denoised_clamp: settings.denoisedClamp,
      hidden: [...arch.velocityHidden],
      encoder_hidden: [...arch.encoderHidden],
      value_hidden: [...arch.valueHidden],
      noise_head_hidden: [...arch.noiseHidden],
    },
    noise: { ...config.noise, method: 'noise', std_min: settings.stdMin, std_max: settings.stdMax },
  };
  try {
    return validateConfig(config);
  } catch (error) {
    throw new CheckpointError(`the settings read with the checkpoint do not make a run config: ${(error as Error).message}`);
  }
}

/**
 * Opens a ReinFlow `.pt` (with its normalization.npz and, when given, its Hydra config) as a checkpoint file of task
 * `task`, or of the one task its sizes fit. What the file does not hold (a pretraining file's noise net and critic)
 * starts as a fresh policy of seed 0 would. Nothing from the file is run; every problem is one CheckpointError.
 */
export function openPeerCheckpoint(files: PeerCheckpointFiles, options: { task?: string; prefer?: string } = {}): OpenedPeerCheckpoint {
  const imported = readReinflowCheckpoint(files);
  const label = files.checkpoint.name;
  const task = matchTask(imported, label, options.task, options.prefer);
  const config = importedConfig(imported, task);
  const tensors = freshParameterValues(imported.architecture, 0);
  for (const [name, entry] of imported.weights) tensors.set(name, entry);
  const metadata = flowMetadata({
    options: imported.architecture,
    normalizer: imported.normalizer,
    task,
    stage: imported.stage,
    config,
    // ReinFlow's own counters, for the record: with no optimizer state in the file, a run from it counts from 0.
    training: { step: 0, iteration: imported.training.iteration, env_steps: imported.training.envSteps },
  });
  const bytes = encodeFlowtune({ tensors, metadata });
  const notes = [...imported.notes, `${label} fits task ${task}: ${imported.architecture.obsDim} observations, ${imported.architecture.actionDim} actions, chunks of ${imported.architecture.horizon}, K = ${imported.settings.denoiseSteps}`];
  return { file: parseCheckpointFile({ kind: 'flowtune', name: label, bytes }), bytes, notes };
}
