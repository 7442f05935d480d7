/** The run's phase and status line as the page shows them, sent as a status event whenever they change. */
import type { Run } from '../../src/core/run/run';
import type { TaskName } from '../../src/core/config/run-config';
import type { RunPhase, RunStatus, TrainerEvent } from '../../src/protocol/trainer-api';

/** What the status line reads from the session when it is drawn. */
export interface StatusFacts {
  run?: Run;
  task: TaskName;
  savedIteration?: number;
  envRestarts: number;
}

export class PhaseBoard {
  phase: RunPhase = 'idle';
  message?: string;
  /** The saved iteration a rollback would return to, offered after non-finite updates stopped the run. */
  rollbackIteration?: number;

  constructor(private readonly emit: (event: TrainerEvent) => void, private readonly facts: () => StatusFacts) {}

  status(): RunStatus {
    const { run, task, savedIteration, envRestarts } = this.facts();
    const elapsed = run?.elapsedSeconds() ?? 0;
    const iteration = run?.iteration ?? 0;
    const total = run?.sizes.iterations ?? 0;
    return {
      phase: this.phase, task, iteration, totalIterations: total, envSteps: run?.envSteps ?? 0, totalEnvSteps: run?.sizes.totalEnvSteps ?? 0,
      elapsedSeconds: elapsed, etaSeconds: run && iteration > 0 ? (elapsed / iteration) * Math.max(0, total - iteration) : undefined, message: this.message,
      savedIteration, rollbackIteration: this.rollbackIteration, envRestarts,
    };
  }

  /** Sends the status as it is now. */
  announce(): void {
    this.emit({ type: 'status', status: this.status() });
  }

  set(phase: RunPhase, message?: string): void {
    this.phase = phase;
    this.message = message;
    this.announce();
  }

  /** The error phase with the error's one sentence, and the error itself for the banner. */
  fail(error: unknown): void {
    const named = error as Error;
    this.set('error', `${named.name && named.name !== 'Error' ? `${named.name}: ` : ''}${named.message ?? String(error)}`);
    this.emit({ type: 'error', name: named.name ?? 'Error', message: named.message ?? String(error) });
  }
}
