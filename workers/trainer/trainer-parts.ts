/**
 * The trainer worker's parts and how they are wired: the training session, its queue and demos
 * flow, the backend choice, the user's tasks, and fault injection in test builds. The API files
 * (api/) read the parts from here, since init() may replace the session and what hangs on it.
 */
import { parseStubbedTimings } from '../../src/core/backend/stubbed-timings';
import { defaultConfig } from '../../src/core/config';
import { TrainingError } from '../../src/core/errors';
import { BackendChoice } from '../../src/core/studio/backend-choice';
import type { RecipeSession } from '../../src/core/studio/recipe-session';
import { RunQueue } from '../../src/core/studio/run-queue';
import type { BackendReport, TrainerInitOptions } from '../../src/protocol/trainer-api';
import { initBrowserBackend, startBrowserBackend, timedCandidates } from '../tfjs-browser';
import { forgetIdlePolicy } from './chain-requests';
import { FaultInjection } from './fault-injection';
import { queuePorts } from './indexeddb-stores';
import { browserRecipeSession } from './recipe-session';
import { TrainingSession } from './training-session';
import { UserTasks } from './user-tasks';

export class TrainerParts {
  session = new TrainingSession(defaultConfig());
  queue!: RunQueue;
  recipe!: RecipeSession;
  choice?: BackendChoice;
  faults?: FaultInjection;
  /** Kept tasks load before anything reads the registry for them (config, model, resume). */
  readonly userTasks = new UserTasks((message) => this.session.emit({ type: 'error', name: 'TaskError', message }));

  constructor() {
    this.hangOnSession();
  }

  tasksReady(): Promise<void> {
    return this.userTasks.ready();
  }

  /** Starts the browser's backend; test builds plug fault injection in as ports (a new session, since nothing ran yet). */
  async init(options: TrainerInitOptions): Promise<BackendReport> {
    const report = await initBrowserBackend(options.backend);
    const stubbed = options.stubbedBackendTimings ? parseStubbedTimings(options.stubbedBackendTimings) : undefined;
    this.choice = new BackendChoice(report, {
      session: () => this.session, start: startBrowserBackend, candidates: timedCandidates, stageHoldsTensors: () => this.stageHoldsTensors(),
      emit: (event) => this.session.emit(event), switched: forgetIdlePolicy, stubbed,
    });
    if (options.faults === true && !this.faults) {
      this.faults = new FaultInjection();
      this.session = new TrainingSession(this.session.config, this.faults);
      this.hangOnSession();
    }
    return report;
  }

  requireBackend(): BackendChoice {
    if (!this.choice) throw new TrainingError('trainer worker is not initialized: call init() first');
    return this.choice;
  }

  /** A short tfjs call, kept apart from a backend switch. */
  withTf<T>(work: () => Promise<T>): Promise<T> {
    return this.requireBackend().gate.use(work);
  }

  /** Why an added task must not change or go now; undefined when it may. */
  taskInUse(name: string): string | undefined {
    if (this.session.run?.config.task === name) return 'is the task of the current run: Reset the run first';
    const stage = this.recipe.status().phase;
    if (this.session.config.task === name && (stage === 'running' || stage === 'paused')) return 'is in use by a New-from-demos stage: let it finish or discard it first';
    return undefined;
  }

  /** A demos stage running or parked holds live tensors. */
  private stageHoldsTensors(): boolean {
    const phase = this.recipe.status().phase;
    return phase === 'running' || phase === 'paused';
  }

  /** The queue and demos flow of the session, and its hooks into the other parts. */
  private hangOnSession(): void {
    const emit = (event: Parameters<TrainingSession['emit']>[0]) => this.session.emit(event);
    this.queue = new RunQueue(this.session, emit, queuePorts);
    this.recipe = browserRecipeSession(this.session, emit);
    this.session.blockedBy = () => this.recipe.blocksTraining();
    this.session.onSelection = () => this.choice?.refresh();
    this.session.beforeOpen = async (savedOn) => this.choice?.beforeRun(savedOn);
  }
}
