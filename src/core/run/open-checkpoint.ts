/**
 * The one way a host opens a checkpoint for a run (DESIGN.md §2 "One path for every host", §16):
 * the file's header is parsed once (core/checkpoint's CheckpointFile), the checkpoint plus overrides
 * are mapped to the run config once (its family, architecture, observation, K, executed steps and
 * control mode), and the tensors are decoded by the family's decoder against the env that config
 * gives, before any tf variable exists. The CLI's train, eval, export and offline, the studio's drop,
 * picker, autosave and export, and sweep workers all come through here, for every policy family.
 */
import { decodeCheckpoint, type ExpectedEnvShapes } from '../checkpoint/checkpoint-open';
import { parseCheckpointFile, type CheckpointFile, type CheckpointFiles } from '../checkpoint/checkpoint-file';
import type { RunConfig, RunOverrides } from '../config';
import { checkTaskVersion } from '../checkpoint/metadata';
import { configActionDim } from '../envs/task-controls';
import { getTask } from '../envs/task-registry';
import { encoderForObsType } from '../policy/options';
import { configObservationSpec } from './run-env-config';
import { decodeGaussianCheckpoint } from '../gaussian/gaussian-checkpoint';
import { runConfigForCheckpoint } from './checkpoint-run-config';
import type { FamilyCheckpoint } from './family-checkpoint';

/** What the env of a run under `config` gives and takes: observation kind, frame size and action size, and its images. */
export function envShapes(config: RunConfig): ExpectedEnvShapes & Required<Omit<ExpectedEnvShapes, 'image'>> {
  const spec = configObservationSpec(config);
  return {
    obsEncoder: encoderForObsType(config.env.obs_type),
    obsFrameSize: spec.dim,
    actionDim: configActionDim(config),
    ...(spec.image ? { image: spec.image } : {}),
  };
}

// Hosts parse a file once here and hand the parsed value on (a drop reads its task first, an export copies its contents).
export { decodeFileContents, parseCheckpointFile, type CheckpointFile, type CheckpointFiles } from '../checkpoint/checkpoint-file';

/** Whether a checkpoint of family `kind` can start a run of `config`; a run of another family starts from a fresh policy. */
export function checkpointStartsRun(config: RunConfig, kind: CheckpointFile['kind']): boolean {
  return config.policy.kind === kind;
}

export interface OpenedCheckpoint {
  checkpoint: FamilyCheckpoint;
  /** The run config in force: `base`, then what the checkpoint fixes, then the overrides; validated. */
  config: RunConfig;
}

/** The file's tensors decoded by its family's decoder for a run under `config`. */
function decodeFor(file: CheckpointFile, config: RunConfig): FamilyCheckpoint {
  checkTaskVersion(file.metadata, getTask(config.task), config.accept_task_version);
  const shapes = envShapes(config);
  if (file.kind === 'gaussian') return decodeGaussianCheckpoint(file, { obsDim: shapes.obsFrameSize, actionDim: shapes.actionDim });
  return decodeCheckpoint(file, shapes);
}

/**
 * A checkpoint for a run: `files` are checked against `base.task`, mapped to the run config
 * (a contradicting override is a ConfigError naming both values), and decoded for that config's
 * env. Takes a file already parsed when the caller needed it first (export reads the task from it).
 */
export function openCheckpoint(files: CheckpointFiles | CheckpointFile, base: RunConfig, overrides: readonly string[] | RunOverrides = []): OpenedCheckpoint {
  const file = 'checked' in files ? files : parseCheckpointFile(files, { expectedTask: base.task });
  const config = runConfigForCheckpoint(base, file.metadata, overrides);
  return { checkpoint: decodeFor(file, config), config };
}

/** A checkpoint a run wrote itself (an autosave, the point a rollback returns to), decoded for that run's config. */
export function reopenCheckpoint(files: CheckpointFiles, config: RunConfig): FamilyCheckpoint {
  return decodeFor(parseCheckpointFile(files, { expectedTask: config.task }), config);
}

/**
 * A checkpoint decoded on its own, against the shapes it declares, for hosts that need no env:
 * an export of a checkpoint whose task is not loaded here.
 */
export function decodeCheckpointAlone(file: CheckpointFile): FamilyCheckpoint {
  return file.kind === 'gaussian' ? decodeGaussianCheckpoint(file) : decodeCheckpoint(file);
}
