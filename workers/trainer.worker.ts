import * as Comlink from 'comlink';
import { parseStubbedTimings } from '../src/core/backend/stubbed-timings';
import { defaultConfig } from '../src/core/config';
import { TrainingError } from '../src/core/errors';
import type { TrainerWorkerApi } from '../src/protocol/trainer-api';
import { initBrowserBackend, startBrowserBackend, timedCandidates } from './tfjs-browser';
import { probeSample } from './probe-sample';
import { probeEvalActions } from './trainer/action-probe';
import { chainSampleBuffers } from './trainer/chain-sampler';
import { forgetIdlePolicy, idlePolicy, sampleChains } from './trainer/chain-requests';
import { BackendChoice } from '../src/core/studio/backend-choice';
import { FaultInjection } from './trainer/fault-injection';
import { TrainingSession } from './trainer/training-session';
import { episodeReplay } from './trainer/episode-replay';
import { chainPaths } from './trainer/chain-paths';
import { liveFrame } from './trainer/live-frame';
import { queuePorts, runArchive } from './trainer/indexeddb-stores';
import { importFolders } from '../src/core/studio/folder-import';
import { RunQueue } from '../src/core/studio/run-queue';
import { browserRecipeSession } from './trainer/recipe-session';
import { exportOnnx } from './trainer/onnx-export';
import { taskEntries, taskEntry } from './trainer/task-catalog';
import { UserTasks } from './trainer/user-tasks';
import { defaultTaskName } from '../src/core/envs/task-registry';
import { registerBuiltInTasks } from '../src/tasks';
import { exportModelFiles } from './trainer/run-export';
import { checkpointForOtherTask } from './trainer/checkpoint-task';

registerBuiltInTasks();

let choice: BackendChoice | undefined;
let faults: FaultInjection | undefined;
let listener: unknown;
let session = new TrainingSession(defaultConfig());
let queue = new RunQueue(session, (event) => session.emit(event), queuePorts);
let recipe = browserRecipeSession(session, (event) => session.emit(event));
// Kept tasks load before anything reads the registry for them (config, model, resume).
const userTasks = new UserTasks((message) => session.emit({ type: 'error', name: 'TaskError', message }));
const tasksReady = () => userTasks.ready();

/** Why an added task must not change or go now; undefined when it may. */
function taskInUse(name: string): string | undefined {
  if (session.run?.config.task === name) return 'is the task of the current run: Reset the run first';
  const stage = recipe.status().phase;
  if (session.config.task === name && (stage === 'running' || stage === 'paused')) return 'is in use by a New-from-demos stage: let it finish or discard it first';
  return undefined;
}

async function announceTasks(): Promise<void> {
  session.emit({ type: 'tasks', tasks: await taskEntries() });
}

/** Hooks the session's run opening and model changes to the other parts (again when init() replaces the session). */
function wireSession(): void {
  session.blockedBy = () => recipe.blocksTraining();
  session.onSelection = () => choice?.refresh();
  session.beforeOpen = async (savedOn) => choice?.beforeRun(savedOn);
}
wireSession();

function requireBackend(): BackendChoice {
  if (!choice) throw new TrainingError('trainer worker is not initialized: call init() first');
  return choice;
}

/** A short tfjs call, kept apart from a backend switch. */
function withTf<T>(work: () => Promise<T>): Promise<T> {
  return requireBackend().gate.use(work);
}

/** A demos stage running or parked holds live tensors. */
function stageHoldsTensors(): boolean {
  const phase = recipe.status().phase;
  return phase === 'running' || phase === 'paused';
}

const api: TrainerWorkerApi = {
  async init(options) {
    const report = await initBrowserBackend(options.backend);
    const stubbed = options.stubbedBackendTimings ? parseStubbedTimings(options.stubbedBackendTimings) : undefined;
    choice = new BackendChoice(report, {
      session: () => session, start: startBrowserBackend, candidates: timedCandidates, stageHoldsTensors, emit: (event) => session.emit(event), switched: forgetIdlePolicy, stubbed,
    });
    // Test builds plug fault injection in as ports; the session is new, since nothing ran yet.
    if (options.faults === true && !faults) {
      faults = new FaultInjection();
      session = new TrainingSession(session.config, faults);
      queue = new RunQueue(session, (event) => session.emit(event), queuePorts);
      recipe = browserRecipeSession(session, (event) => session.emit(event));
      wireSession();
    }
    return report;
  },
  async probeSample(seed) {
    const result = await withTf(() => probeSample(seed, requireBackend().report.backend));
    return Comlink.transfer(result, [result.actions.buffer]);
  },
  async subscribe(next) {
    const previous = listener as unknown as { [Comlink.releaseProxy]?: () => void } | undefined;
    previous?.[Comlink.releaseProxy]?.();
    listener = next;
    session.setListener((event) => void Promise.resolve(next(event)).catch(() => undefined));
  },
  async setConfig(config) {
    await tasksReady();
    return session.models.setConfig(config);
  },
  async setNoise(noise) {
    return session.models.setNoise(noise);
  },
  async listTasks() {
    await tasksReady();
    return taskEntries();
  },
  async addTask(folder) {
    const task = await userTasks.add(folder, taskInUse);
    await announceTasks();
    return taskEntry(task);
  },
  async removeTask(name) {
    await userTasks.remove(name, taskInUse);
    // The next run cannot name a task that is gone: it goes back to the default task.
    if (session.config.task === name) await session.models.selectTask(defaultTaskName(), 'state');
    await announceTasks();
  },
  async selectTask(task, obsType) {
    await tasksReady();
    // The task's model arrives in steps (the task, then its shipped checkpoint): timed once, after both.
    const select = () => session.models.selectTask(task, obsType);
    return choice ? choice.holding(select) : select();
  },
  async loadCheckpoint(files) {
    requireBackend();
    await tasksReady();
    const otherTask = checkpointForOtherTask(files, session.config.task);
    if (otherTask) return otherTask;
    const info = session.models.loadCheckpoint(files);
    return { kind: 'accepted', info, afterReset: session.hasRun };
  },
  async train() {
    requireBackend();
    await session.train();
  },
  pause: () => session.pause(),
  stepOnce: async () => {
    requireBackend();
    await session.stepOnce();
  },
  stop: () => session.stop(),
  reset: () => session.reset(true),
  status: async () => session.status(),
  // A running queue owns the autosave: the queue resumes it, so no banner offers it.
  savedRun: async () => ((await queue.running()) ? null : session.offers.offered()),
  async resumeSaved() {
    requireBackend();
    await tasksReady();
    return session.resume();
  },
  rollBack: () => session.rollBack(),
  keepSaved: () => session.offers.keep(),
  discardSaved: () => session.offers.discard(),
  async resumeRun(id) {
    requireBackend();
    await tasksReady();
    await session.resume(id);
  },
  async exportModel() {
    const files = await exportModelFiles(session.run, session.models.selected);
    return Comlink.transfer(files, [files.flowtune.buffer as ArrayBuffer, files.weightsBin.buffer as ArrayBuffer]);
  },
  async exportOnnx() {
    const file = await withTf(() => exportOnnx(session));
    const { check } = file;
    return Comlink.transfer(file, [file.bytes.buffer as ArrayBuffer, check.obs.buffer as ArrayBuffer, check.x0.buffer as ArrayBuffer, check.actions.buffer as ArrayBuffer]);
  },
  async probeActions(model, seed) {
    const actions = await withTf(async () => {
      if (model === 'run') {
        const run = session.run;
        if (!run) throw new TrainingError('there is no run to probe: press Train first');
        return probeEvalActions(run.bundle, run.config, seed);
      }
      if (!session.models.selected) throw new TrainingError('no checkpoint is selected: drop one in first');
      return probeEvalActions(await idlePolicy(session), session.config, seed);
    });
    return Comlink.transfer({ model, seed, actions }, [actions.buffer]);
  },
  async sampleChains(request) {
    const sample = await withTf(() => sampleChains(session, request));
    return Comlink.transfer(sample, chainSampleBuffers(sample));
  },
  listEpisodes: async () => session.episodes.list(),
  async episodeReplay(id) {
    const replay = await episodeReplay(session.episodes, id);
    return Comlink.transfer(replay, [replay.poses.poses.buffer, replay.poses.tcp.buffer]);
  },
  async chainPaths(request) {
    const paths = await withTf(() => chainPaths(session, request));
    const cloud = paths.pointCloud ? [paths.pointCloud.points.buffer, paths.pointCloud.shares.buffer] : [];
    return Comlink.transfer(paths, [paths.paths.buffer, paths.odePath.buffer, paths.poses.poses.buffer, paths.poses.tcp.buffer, ...cloud]);
  },
  async liveFrame(envIndex) {
    const frame = await liveFrame(session, envIndex);
    return frame ? Comlink.transfer(frame, [frame.poses.poses.buffer, frame.poses.tcp.buffer]) : null;
  },
  listRuns: () => session.listings.all(),
  runDetails: (ids) => runArchive.details(ids, session.currentRunId),
  async deleteRun(id) {
    await runArchive.forgetRuns([id], session.currentRunId);
    await session.listings.announce();
    // Deleting the run the banner offers withdraws the offer.
    await session.offers.announce();
  },
  listSweeps: () => runArchive.sweeps(),
  async deleteSweep(id) {
    await runArchive.forgetSweep(id);
    await session.listings.announce();
  },
  async importFolder(files) {
    const result = await importFolders(runArchive, files);
    await session.listings.announce();
    return result;
  },
  startQueue: (request) => queue.start(request),
  cancelQueue: () => queue.cancel(),
  queueStatus: () => queue.status(),
  resumeQueue: async () => {
    await tasksReady();
    return queue.resume();
  },
  recordDemos: (request) => recipe.recordDemos(request),
  loadDemos: async (file) => recipe.loadDemos(file),
  async exportDemos() {
    const file = recipe.exportDemos();
    return Comlink.transfer(file, [file.bytes.buffer as ArrayBuffer]);
  },
  startPretrain: (request) => withTf(() => recipe.startPretrain(request)),
  startOffline: (request) => withTf(() => recipe.startOffline(request)),
  pauseRecipe: () => recipe.pauseRecipe(),
  resumeRecipe: () => withTf(() => recipe.resumeRecipe()),
  discardRecipe: () => recipe.discardRecipe(),
  // Not transferred: the stage keeps its finished file for later exports.
  exportRecipePolicy: () => recipe.exportRecipePolicy(),
  recipeStatus: async () => recipe.status(),
  async injectFault(kind) {
    if (!faults) throw new TrainingError('fault injection is off: it exists only in test builds with ?faults=1');
    if (kind === 'trainer-throw') faults.failNextStep();
    else if (kind === 'nonfinite-updates') faults.failNextStep('nonfinite-updates');
    else faults.killEnvWorker();
  },
};

Comlink.expose(api);
