/** RunControlApi: the run's config, model and lifecycle, delegated to the training session. */
import * as Comlink from 'comlink';
import { TrainingError } from '../../../src/core/errors';
import type { RunControlApi } from '../../../src/protocol/trainer-api';
import { checkpointForOtherTask } from '../../../src/core/studio/checkpoint-task';
import { openDroppedCheckpoint } from '../../../src/core/studio/peer-drop';
import type { TrainerParts } from '../trainer-parts';

export function runControlApi(parts: TrainerParts): RunControlApi {
  let listener: unknown;
  return {
    init: (options) => parts.init(options),
    async subscribe(next) {
      const previous = listener as unknown as { [Comlink.releaseProxy]?: () => void } | undefined;
      previous?.[Comlink.releaseProxy]?.();
      listener = next;
      parts.session.setListener((event) => void Promise.resolve(next(event)).catch(() => undefined));
    },
    async setConfig(config) {
      await parts.tasksReady();
      return parts.session.models.setConfig(config);
    },
    async setNoise(noise) {
      return parts.session.models.setNoise(noise);
    },
    async setLive(settings) {
      return parts.session.models.setLive(settings);
    },
    async selectTask(task, obsType) {
      await parts.tasksReady();
      // The task's model arrives in steps (the task, then its shipped checkpoint): timed once, after both.
      const select = () => parts.session.models.selectTask(task, obsType);
      return parts.choice ? parts.choice.holding(select) : select();
    },
    async loadCheckpoint(dropped) {
      parts.requireBackend();
      await parts.tasksReady();
      // Parsed once (a peer's .pt converted once into a .flowtune): its task decides between the choice the page offers and opening it.
      const { files, file, notes } = openDroppedCheckpoint(dropped, parts.session.config.task);
      const otherTask = checkpointForOtherTask(file, parts.session.config.task);
      if (otherTask) return otherTask;
      const info = parts.session.models.loadCheckpoint(files, file);
      return { kind: 'accepted', info, afterReset: parts.session.hasRun, ...(notes.length > 0 ? { notes } : {}) };
    },
    async train() {
      parts.requireBackend();
      await parts.session.train();
    },
    pause: () => parts.session.pause(),
    stepOnce: async () => {
      parts.requireBackend();
      await parts.session.stepOnce();
    },
    stop: () => parts.session.stop(),
    reset: () => parts.session.reset(true),
    status: async () => parts.session.status(),
    // A running queue owns the autosave: the queue resumes it, so no banner offers it.
    savedRun: async () => ((await parts.queue.running()) ? null : parts.session.offers.offered()),
    async resumeSaved() {
      parts.requireBackend();
      await parts.tasksReady();
      return parts.session.resume();
    },
    rollBack: () => parts.session.rollBack(),
    keepSaved: () => parts.session.offers.keep(),
    discardSaved: () => parts.session.offers.discard(),
    async resumeRun(id) {
      parts.requireBackend();
      await parts.tasksReady();
      await parts.session.resume(id);
    },
    async injectFault(kind) {
      const faults = parts.faults;
      if (!faults) throw new TrainingError('fault injection is off: it exists only in test builds with ?faults=1');
      if (kind === 'trainer-throw') faults.failNextStep();
      else if (kind === 'nonfinite-updates') faults.failNextStep('nonfinite-updates');
      else faults.killEnvWorker();
    },
  };
}
