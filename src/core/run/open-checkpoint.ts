/**
 * The one way a host opens a checkpoint for a run (DESIGN.md §2 "One path for every host"): the
 * header is parsed once, the checkpoint plus overrides are mapped to the run config once (its
 * architecture, observation, K, executed steps and control mode), and the tensors are decoded
 * against the env that config gives, before any tf variable exists. The CLI's train, eval,
 * export and offline, the studio's drop, picker, autosave and export, and sweep workers (through
 * train) all come through here.
 */
import { decodeCheckpoint, readCheckpointHeader, type CheckpointFiles, type CheckpointHeader, type ExpectedEnvShapes, type PolicyCheckpoint } from '../checkpoint/checkpoint-open';
import type { RunConfig, RunOverrides } from '../config';
import { checkTaskVersion } from '../checkpoint/metadata';
import { configActionDim } from '../envs/task-controls';
import { observationSpec } from '../envs/observation';
import { getTask } from '../envs/task-registry';
import { runConfigForCheckpoint } from './checkpoint-run-config';

/** What the env of a run under `config` gives and takes: observation kind, frame size and action size. */
export function envShapes(config: RunConfig): Required<ExpectedEnvShapes> {
  return {
    obsEncoder: config.env.obs_type,
    obsFrameSize: observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points).dim,
    actionDim: configActionDim(config),
  };
}

export interface OpenedCheckpoint {
  checkpoint: PolicyCheckpoint;
  /** The run config in force: `base`, then what the checkpoint fixes, then the overrides; validated. */
  config: RunConfig;
}

/**
 * A checkpoint for a run: `files` are checked against `base.task`, mapped to the run config
 * (a contradicting override is a ConfigError naming both values), and decoded for that config's
 * env. Takes a header already read when the caller needed it first (export reads the task from it).
 */
export function openCheckpoint(files: CheckpointFiles | CheckpointHeader, base: RunConfig, overrides: readonly string[] | RunOverrides = []): OpenedCheckpoint {
  const header = 'checked' in files ? files : readCheckpointHeader(files, { expectedTask: base.task });
  const config = runConfigForCheckpoint(base, header.metadata, overrides);
  checkTaskVersion(header.metadata, getTask(config.task).hash, config.accept_task_version);
  return { checkpoint: decodeCheckpoint(header, envShapes(config)), config };
}

/** A checkpoint a run wrote itself (an autosave, the point a rollback returns to), decoded for that run's config. */
export function reopenCheckpoint(files: CheckpointFiles, config: RunConfig): PolicyCheckpoint {
  const header = readCheckpointHeader(files, { expectedTask: config.task });
  checkTaskVersion(header.metadata, getTask(config.task).hash, config.accept_task_version);
  return decodeCheckpoint(header, envShapes(config));
}
