/**
 * Pausing a step loop that runs in the background (the demos flow's stages): the call that starts
 * or resumes the loop resolves when the loop next pauses or ends, and rejects when it fails.
 */
/** Thrown out of a parked loop that was discarded instead of resumed. */
export class StageDiscarded extends Error {
  override readonly name = 'StageDiscarded';
}

export class StagePause {
  private requested = false;
  private discarded = false;
  private release?: () => void;
  private waiter?: { resolve: () => void; reject: (error: Error) => void };

  /** A promise for the caller that (re)starts the loop: settled at its next pause or its end. */
  untilSettled(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  get paused(): boolean {
    return this.release !== undefined;
  }

  request(): void {
    this.requested = true;
  }

  /** Awaited by the loop between steps: parks it when a pause was requested, until resume(). */
  async checkpoint(onPause: () => void, onResume: () => void): Promise<void> {
    if (!this.requested) return;
    this.requested = false;
    await new Promise<void>((resolve) => {
      this.release = resolve;
      onPause();
      this.settle();
    });
    if (this.discarded) {
      this.discarded = false;
      throw new StageDiscarded('the paused stage was discarded');
    }
    onResume();
  }

  /** Ends a parked loop: its checkpoint() throws StageDiscarded, so the loop unwinds and frees what it holds. */
  discard(): void {
    const release = this.release;
    if (!release) return;
    this.discarded = true;
    this.release = undefined;
    release();
  }

  /** Lets a parked loop go on; the returned promise settles at its next pause or end. */
  resume(): Promise<void> {
    const release = this.release;
    if (!release) return Promise.resolve();
    const settled = this.untilSettled();
    this.release = undefined;
    release();
    return settled;
  }

  /** The loop ended (with an error, or without). */
  settle(error?: Error): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    this.requested = false;
    if (error) waiter?.reject(error);
    else waiter?.resolve();
  }
}
