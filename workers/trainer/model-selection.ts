/**
 * The studio's choice of the next run: its config and the model it starts from (a dropped or
 * shipped checkpoint, opened by core/run's openCheckpoint, or a fresh policy). While a run
 * exists the Model panel describes the run's own model, and a newly chosen one waits for Reset.
 */
import type { FamilyCheckpoint } from '../../src/core/run/family-checkpoint';
import { cloneConfig, diffConfig, validateConfig, type NoiseConfig, type RunConfig, type TaskName } from '../../src/core/config';
import { getTask } from '../../src/core/envs/task-registry';
import { obsTypeSuffix } from '../../src/core/studio/obs-type-words';
import { taskVariantConfig } from '../../src/core/studio/task-variant-config';
import { assertConfigFitsCheckpoint } from '../../src/core/run/checkpoint-run-config';
import { checkpointStartsRun, openCheckpoint, parseCheckpointFile, type CheckpointFile } from '../../src/core/run/open-checkpoint';
import { familyLabel } from '../../src/core/run/fresh-policy-name';
import { isLiveKey, liveSettingsOf, withLiveSettings, type LiveSettings } from '../../src/core/run/live-settings';
import type { Run } from '../../src/core/run/run';
import type { CheckpointFiles, CheckpointInfo, ModelSource, ObsType, TrainerEvent } from '../../src/protocol/trainer-api';
import { checkpointInfo, fetchShipped, shippedCheckpointPath } from './model-source';

/** A checkpoint chosen for the next run: opened and validated once. */
export interface SelectedModel {
  files: CheckpointFiles;
  info: CheckpointInfo;
  checkpoint: FamilyCheckpoint;
}

/** The model a run was opened from, and the selection it came from (a later drop replaces the selection, not this). */
interface RunModel {
  source: ModelSource;
  selected?: SelectedModel;
}

export class ModelSelection {
  selected?: SelectedModel;
  private runModel?: RunModel;
  /** Why there is no checkpoint to start from, as the task selection found. */
  private freshReason?: string;

  constructor(
    public config: RunConfig,
    private readonly emit: (event: TrainerEvent) => void,
    private readonly liveRun: () => Run | undefined,
  ) {}

  /**
   * The config of the next run; its live fields (noise, DPPO's std floor) also reach a live run, through Run.setLive.
   * A field the selected checkpoint fixes (its architecture, observation or action space) is refused.
   */
  setConfig(config: RunConfig): RunConfig {
    const valid = validateConfig(cloneConfig(config));
    const selected = this.selected;
    // Another policy family (a preset such as gaussian-ppo) trains from a fresh policy of its own: the checkpoint is set aside.
    if (selected && !checkpointStartsRun(valid, selected.checkpoint.kind)) {
      this.freshReason = `policy.kind=${valid.policy.kind}: Train starts from a fresh ${familyLabel(valid.policy.kind)} policy, since ${selected.info.source} holds a ${familyLabel(selected.checkpoint.kind)} policy (drop it again to train it)`;
      this.liveRun()?.setLive(liveSettingsOf(valid));
      this.use(valid, undefined);
      return this.config;
    }
    if (selected && valid.task === selected.checkpoint.metadata.task) assertConfigFitsCheckpoint(valid, selected.checkpoint.metadata);
    this.liveRun()?.setLive(liveSettingsOf(valid));
    this.config = valid;
    this.emit({ type: 'config', config: this.config });
    return this.config;
  }

  /** Changes noise fields (setLive with the noise section only). */
  setNoise(noise: Partial<NoiseConfig>): RunConfig {
    return this.setLive({ noise });
  }

  /**
   * Changes live fields (noise, DPPO's std floor); a live run reads them when its next rollout starts.
   * They never conflict with a checkpoint, and each config the change lands in is validated once: a live
   * run validates its own, which is the next run's config too unless other fields were edited since.
   */
  setLive(settings: LiveSettings): RunConfig {
    const next = withLiveSettings(this.config, settings);
    const run = this.liveRun();
    if (!run || diffConfig(run.config, this.config).some((change) => !isLiveKey(change.key))) validateConfig(next);
    run?.setLive(liveSettingsOf(next));
    this.config = next;
    this.emit({ type: 'config', config: next });
    return next;
  }

  /**
   * Opens the files completely (the checkpoint's architecture and observation become the next
   * run's); only then do they replace the selected model. A run's model stays: the file waits for Reset.
   * `parsed` is the files' CheckpointFile when the caller already parsed the header (it is not parsed again).
   */
  loadCheckpoint(files: CheckpointFiles, parsed?: CheckpointFile): CheckpointInfo {
    const { checkpoint, config } = openCheckpoint(parsed ?? files, this.config);
    const info = checkpointInfo(files, checkpoint);
    this.use(config, { files, info, checkpoint });
    return info;
  }

  /**
   * Selects the model and config of a queued run; the files are opened as a dropped checkpoint is, and must fit the config.
   * Files of another policy family than the config trains are not its start: the run starts from a fresh policy, as on the CLI.
   */
  prepareRun(files: CheckpointFiles | undefined, config: RunConfig): void {
    const valid = validateConfig(cloneConfig(config));
    let selected: SelectedModel | undefined;
    const file = files && parseCheckpointFile(files, { expectedTask: valid.task });
    if (files && file && checkpointStartsRun(valid, file.kind)) {
      const { checkpoint } = openCheckpoint(file, valid);
      assertConfigFitsCheckpoint(valid, checkpoint.metadata);
      selected = { files, info: checkpointInfo(files, checkpoint), checkpoint };
    } else if (files && file) {
      this.freshReason = `policy.kind=${valid.policy.kind}: the run starts from a fresh ${familyLabel(valid.policy.kind)} policy, since ${files.name} holds a ${familyLabel(file.kind)} policy`;
    }
    this.use(valid, selected);
  }

  /**
   * Selects a task and its observation kind, and preselects the shipped checkpoint for both when
   * there is one. A task the user added ships none: Train starts from a fresh policy.
   */
  async selectTask(task: TaskName, obsType: ObsType): Promise<ModelSource> {
    // A control the previous task's checkpoint named that this task lacks goes back to the task's default; images keep no history.
    this.use(validateConfig(taskVariantConfig(this.config, task, obsType, getTask(task).controls)), undefined);
    if (getTask(task).module) {
      this.freshReason = `${task} is a task you added: Train starts from a freshly initialized policy, or drop a checkpoint trained on it`;
      this.announce();
      return this.source();
    }
    const path = shippedCheckpointPath(task, obsType);
    const variant = `${task}${obsTypeSuffix(obsType)}`;
    let reason = `no shipped checkpoint for ${variant}: ${path} is missing; drop one in, or Train starts from a freshly initialized policy`;
    const shipped = await fetchShipped(task, obsType).catch((error: unknown) => {
      reason = `the shipped checkpoint for ${variant} could not be fetched: ${(error as Error).message}`;
      return undefined;
    });
    if (shipped) {
      try {
        const files: CheckpointFiles = { kind: 'flowtune', name: shipped.name, bytes: shipped.bytes };
        const file = parseCheckpointFile(files, { expectedTask: task });
        // A config of another family (policy.kind from the link or a preset) keeps its fresh policy.
        if (checkpointStartsRun(this.config, file.kind)) this.loadCheckpoint(files, file);
        else reason = `policy.kind=${this.config.policy.kind}: Train starts from a fresh ${familyLabel(this.config.policy.kind)} policy, since the shipped checkpoint for ${variant} holds a ${familyLabel(file.kind)} policy`;
      } catch (error) {
        reason = `the shipped checkpoint for ${variant} was rejected: ${(error as Error).message}`;
      }
    }
    this.freshReason = reason;
    this.announce();
    return this.source();
  }

  /** Takes the run's config after the run changed it (a rollback halves actor_lr), and says so. */
  followRun(config: RunConfig): void {
    this.config = cloneConfig(config);
    this.emit({ type: 'config', config: this.config });
  }

  /** Makes `config` and `selected` the next run's, and says so. */
  use(config: RunConfig, selected: SelectedModel | undefined): void {
    this.config = config;
    this.selected = selected;
    this.emit({ type: 'config', config });
    this.announce();
  }

  source(): ModelSource {
    return this.selected ? { kind: 'checkpoint', info: this.selected.info } : { kind: 'fresh', reason: this.freshReason ?? 'no checkpoint selected' };
  }

  /** Notes the model the run now open started from (undefined: the run is gone). */
  markRunModel(open: boolean): void {
    this.runModel = open ? { source: this.source(), selected: this.selected } : undefined;
    this.announce();
  }

  /**
   * Tells the page which model Train uses: the open run's own, or with no run the selected one. A
   * model selected while a run exists goes with it as `next`: a run after Reset starts from it.
   */
  announce(): void {
    const selected = this.source();
    if (!this.runModel) {
      this.emit({ type: 'model', model: selected });
      return;
    }
    this.emit({ type: 'model', model: this.runModel.source, next: this.selected !== this.runModel.selected ? selected : undefined });
  }
}
