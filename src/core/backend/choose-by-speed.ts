/**
 * The measured choice of a backend, whatever hosts it (the studio's trainer worker, the CLI): start
 * each candidate, time the model on it, pick by `chooseFastest`, and leave the winner in use. The
 * host plugs in how a backend starts and how the model is timed.
 */
import { BackendError } from '../errors';
import { backendSpeed, chooseFastest, type BackendTiming, type BackendVerdict, type IterationWorkload } from './backend-speed';
import type { BackendName } from './choose-backend';
import type { PolicySpeed } from './policy-speed';

export interface BackendTrialPorts {
  /** Makes `backend` the one in use; throws when it cannot start (the message is the reason). */
  start(backend: BackendName): Promise<void>;
  /**
   * Times the model on the backend in use. `boundSeconds` is the fastest whole iteration timed so
   * far: once this backend's decisions alone take longer, it may stop and answer `partial`.
   */
  measure(backend: BackendName, boundSeconds: number): Promise<PolicySpeed>;
}

export interface BackendFailure {
  backend: BackendName;
  reason: string;
}

export interface MeasuredChoice extends BackendVerdict {
  /** Backends that did not start, or failed while timed. */
  failures: BackendFailure[];
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function trials(candidates: readonly BackendName[], workload: IterationWorkload, ports: BackendTrialPorts, failures: BackendFailure[]): Promise<BackendTiming[]> {
  const timings: BackendTiming[] = [];
  for (const backend of candidates) {
    try {
      await ports.start(backend);
      const complete = timings.filter((timing) => !timing.partial).map((timing) => backendSpeed(timing, workload).iterationSeconds);
      timings.push({ backend, ...(await ports.measure(backend, Math.min(Infinity, ...complete))) });
    } catch (error) {
      failures.push({ backend, reason: reasonOf(error) });
    }
  }
  return timings;
}

/**
 * Times every candidate, in order, and leaves the fastest in use (by `chooseFastest`, ties to
 * the earlier candidate); a later candidate may stop early once it cannot win (`partial`).
 * Order the likely winner first. Only when none of them can be timed are the `lastResort` backends tried (cpu).
 * Throws BackendError naming every failure when no backend can be timed.
 */
export async function chooseBySpeed(
  candidates: readonly BackendName[],
  lastResort: readonly BackendName[],
  workload: IterationWorkload,
  ports: BackendTrialPorts,
): Promise<MeasuredChoice> {
  const failures: BackendFailure[] = [];
  let timings = await trials(candidates, workload, ports, failures);
  if (timings.length === 0) timings = await trials(lastResort.filter((backend) => !candidates.includes(backend)), workload, ports, failures);
  if (timings.length === 0) {
    throw new BackendError(`no tfjs backend could be timed: ${failures.map((failure) => `${failure.backend}: ${failure.reason}`).join('; ') || 'no candidates'}`);
  }
  const verdict = chooseFastest(timings, workload, [...candidates, ...lastResort]);
  await ports.start(verdict.backend);
  return { ...verdict, failures };
}
