/**
 * The studio trainer's backend, chosen by timing the selected model at the next run's sizes (core/backend's
 * rule) on each backend the browser starts, and used by every tensor made afterwards.
 *
 * Design: the timing happens only while no tensor outlives a call, before a run's tensors exist:
 * with no run open and no demos stage running or parked. The selected model is decoded arrays
 * (Float32Array), so each backend tried gets its own copy of the weights, disposed after the timing;
 * the run then builds its variables on the winner. While a run exists its backend stays, and a
 * model or size change waits for the next run, which is timed before it opens; a resumed run takes
 * back the backend it was saved on. Short tfjs calls go through the TfGate, so none overlaps a
 * switch. A backend forced with ?backend= is not timed.
 */
import { workloadOf } from '../backend/backend-speed';
import { chooseBySpeed, type BackendTrialPorts } from '../backend/choose-by-speed';
import { measurementKey, timedModel } from '../backend/measured-model';
import { timedSizes, timeModel } from '../backend/model-timing';
import type { BackendName } from '../backend/choose-backend';
import type { StubbedTimings } from '../backend/stubbed-timings';
import type { RunConfig } from '../config/run-config';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import type { BackendReport, TrainerEvent } from '../../protocol/trainer-api';
import { TfGate } from './tf-gate';

/** What the choice reads of the trainer's session: whether a run holds tensors, and the next run's model. */
export interface BackendSession {
  readonly hasRun: boolean;
  readonly phase: string;
  readonly config: RunConfig;
  readonly models: { readonly selected?: { readonly checkpoint: FamilyCheckpoint } };
}

export interface BackendChoiceHost {
  session: () => BackendSession;
  /** Makes `backend` the one in use (the browser's tfjs, or a fake in tests); throws when it does not start. */
  start: (backend: BackendName) => Promise<void>;
  /** The backends worth timing here, in order of preference. */
  candidates: () => Promise<BackendName[]>;
  /** A demos stage is running or parked: it holds tensors. */
  stageHoldsTensors: () => boolean;
  emit: (event: TrainerEvent) => void;
  /** Told after the backend in use changed, so that cached policies are built again on it. */
  switched?: () => void;
  /** Test builds: timings used in place of measured ones. */
  stubbed?: StubbedTimings;
}

/** Changes that come together (the page sets the config, then selects the task's model) are timed once. */
const SETTLE_MS = 150;

export class BackendChoice {
  readonly gate = new TfGate();
  private timedKey?: string;
  private refreshing?: Promise<void>;
  private again = false;
  private settleTimer?: ReturnType<typeof setTimeout>;
  private holds = 0;

  constructor(public report: BackendReport, private readonly host: BackendChoiceHost) {}

  /**
   * Times again, shortly, when the model or the sizes changed and nothing holds tensors; the page
   * hears of it by a 'backend' event. Cheap when nothing changed: the key is compared first.
   */
  refresh(): void {
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => this.start(), SETTLE_MS);
  }

  /** Runs `work` (a model selection in steps, e.g. a task and then its fetched checkpoint) with timing held until it ends. */
  async holding<T>(work: () => Promise<T>): Promise<T> {
    this.holds++;
    try {
      return await work();
    } finally {
      this.holds--;
      if (this.holds === 0) this.refresh();
    }
  }

  private start(): void {
    if (this.holds > 0) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.timeIfStale(false);
      } while (this.again);
    })().finally(() => (this.refreshing = undefined));
  }

  /**
   * Called as a run opens, before its tensors exist: times first when the last timing is stale. A
   * restored run goes back to the backend it was saved on (`savedOn`), untimed, so it continues
   * bit-exact; only a backend forced with ?backend= overrides that.
   */
  async beforeRun(savedOn?: BackendName): Promise<void> {
    clearTimeout(this.settleTimer);
    await this.refreshing;
    if (savedOn !== undefined && this.report.forced === undefined && await this.resumeOn(savedOn)) return;
    await this.timeIfStale(true);
  }

  /** Starts the backend a restored run was saved on; false (the page hears why) when it does not start here. */
  private async resumeOn(backend: BackendName): Promise<boolean> {
    return this.gate.exclusive(async () => {
      const before = this.report.backend;
      try {
        await this.host.start(backend);
      } catch (error) {
        await this.host.start(before).catch(() => undefined);
        this.host.emit({ type: 'error', name: 'BackendError', message: `the run was saved on ${backend}, which does not start here (${(error as Error).message}); it resumes on the backend timed fastest and may not continue bit-exact` });
        return false;
      }
      if (backend !== before) this.host.switched?.();
      // The next new run is timed again: this backend was the saved run's, not a measured choice.
      this.timedKey = undefined;
      this.publish({ ...this.report, backend, choice: 'resumed', timing: false });
      return true;
    });
  }

  private idle(forRun: boolean): boolean {
    const session = this.host.session();
    return !session.hasRun && (forRun || session.phase !== 'starting') && !this.host.stageHoldsTensors();
  }

  /** The key of what the next run would time; undefined when it cannot be timed (a family that is not timed, an unknown task). */
  private key(): string | undefined {
    if (this.report.forced && this.report.backend === this.report.forced) return undefined;
    const { config, models } = this.host.session();
    if (!timedModel(config, models.selected?.checkpoint)) return undefined;
    try {
      return measurementKey(config, models.selected?.checkpoint);
    } catch {
      return undefined;
    }
  }

  private async timeIfStale(forRun: boolean): Promise<void> {
    const stale = () => this.idle(forRun) && this.key() !== undefined && this.key() !== this.timedKey;
    if (!stale()) return;
    await this.gate.exclusive(async () => {
      // Checked again: a run may have started, or the same key been timed, while this waited.
      if (!stale()) return;
      const key = this.key()!;
      this.publish({ ...this.report, timing: true });
      try {
        await this.timeAndSwitch();
        this.timedKey = key;
      } catch (error) {
        // The backend in use before the timing stays; the page hears why.
        await this.host.start(this.report.backend).catch(() => undefined);
        this.publish({ ...this.report, timing: false });
        this.host.emit({ type: 'error', name: 'BackendError', message: `the backends could not be timed: ${(error as Error).message}` });
      }
    });
  }

  private async timeAndSwitch(): Promise<void> {
    const { config, models } = this.host.session();
    const checkpoint = models.selected?.checkpoint;
    const workload = workloadOf(config);
    const before = this.report.backend;
    const stubbed = this.host.stubbed;
    const ports: BackendTrialPorts = {
      start: this.host.start,
      measure: async (backend, boundSeconds) => stubbed?.[backend] ?? timeModel(config, checkpoint, boundSeconds),
    };
    const candidates = await this.host.candidates();
    const choice = await chooseBySpeed(candidates, ['cpu'], workload, ports);
    if (choice.backend !== before) this.host.switched?.();
    this.publish({
      ...this.report,
      backend: choice.backend,
      choice: 'measured',
      speeds: choice.speeds,
      timedAt: timedSizes(config),
      timing: false,
      stubbed: stubbed !== undefined && candidates.some((backend) => stubbed[backend] !== undefined),
      failures: [...this.report.failures.filter((failure) => !candidates.includes(failure.backend)), ...choice.failures],
    });
  }

  private publish(report: BackendReport): void {
    this.report = report;
    this.host.emit({ type: 'backend', report });
  }
}
