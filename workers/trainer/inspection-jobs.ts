/**
 * Chain- and path-view samples read the run's weights, so they never overlap a PPO
 * update: asked for while an iteration runs, they wait until it ends; a resume waits
 * for every sample in flight.
 */
export class InspectionJobs {
  private readonly queued: (() => Promise<void>)[] = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly iterationBusy: () => boolean) {}

  /** Runs `job` now when no iteration is running, else right after the current one. */
  whenNoUpdate<T>(job: () => Promise<T>): Promise<T> {
    if (!this.iterationBusy()) {
      const started = job();
      const tracked: Promise<unknown> = started.finally(() => this.running.delete(tracked)).catch(() => undefined);
      this.running.add(tracked);
      return started;
    }
    return new Promise<T>((resolve, reject) => this.queued.push(() => job().then(resolve, reject)));
  }

  /** Waits until no sample is in flight. */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Runs the jobs that waited for an iteration to end. */
  async runQueued(): Promise<void> {
    while (this.queued.length > 0) await this.queued.shift()!();
  }
}
