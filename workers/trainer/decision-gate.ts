/**
 * The cooperative pause point before each decision: closed while a pause is
 * requested, so the next chunk step waits; opened to continue, aborted on reset.
 */
export class DecisionGate {
  private pending?: { promise: Promise<void>; release: () => void; abort: (error: Error) => void };
  private onBlocked?: () => void;

  get closed(): boolean {
    return this.pending !== undefined;
  }

  close(): void {
    if (this.pending) return;
    let release = () => {};
    let abort: (error: Error) => void = () => {};
    const promise = new Promise<void>((resolve, reject) => {
      release = resolve;
      abort = reject;
    });
    promise.catch(() => undefined); // an abort with no decision waiting is not an error
    this.pending = { promise, release, abort };
  }

  open(): void {
    this.pending?.release();
    this.pending = undefined;
  }

  abort(error: Error): void {
    this.pending?.abort(error);
    this.pending = undefined;
  }

  /** Resolves when the next decision starts waiting. */
  blocked(): Promise<void> {
    return new Promise((resolve) => {
      this.onBlocked = resolve;
    });
  }

  /** Called before each decision: waits while closed. */
  readonly pass = async (): Promise<void> => {
    const pending = this.pending;
    if (!pending) return;
    this.onBlocked?.();
    this.onBlocked = undefined;
    await pending.promise;
  };
}
