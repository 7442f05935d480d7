/**
 * Lets charts redraw one at a time, each in its own frame: a new metric record
 * changes every chart at once, and queued, each frame carries at most one
 * chart's work (DESIGN.md §7: the main thread only renders).
 */
export interface FrameScheduler {
  /** Runs `callback` after the next frame has been rendered. */
  afterNextFrame(callback: () => void): void;
}

/** The browser's: a task queued from an animation-frame callback runs after that frame's work. */
export const browserFrameScheduler: FrameScheduler = {
  afterNextFrame: (callback) => requestAnimationFrame(() => setTimeout(callback, 0)),
};

export class RedrawQueue {
  private readonly pending = new Map<object, () => void>();
  private draining = false;

  constructor(private readonly scheduler: FrameScheduler) {}

  /**
   * Queues `redraw` for `owner`, replacing a redraw it already has queued (only the newest data
   * matters). Returns a function that cancels it.
   */
  request(owner: object, redraw: () => void): () => void {
    // Re-inserting moves the owner to the back, so a chart that keeps changing cannot starve others.
    this.pending.delete(owner);
    this.pending.set(owner, redraw);
    if (!this.draining) {
      this.draining = true;
      this.scheduler.afterNextFrame(() => this.drainOne());
    }
    return () => {
      if (this.pending.get(owner) === redraw) this.pending.delete(owner);
    };
  }

  get size(): number {
    return this.pending.size;
  }

  private drainOne(): void {
    const next = this.pending.entries().next();
    if (next.done) {
      this.draining = false;
      return;
    }
    const [owner, redraw] = next.value;
    this.pending.delete(owner);
    redraw();
    this.scheduler.afterNextFrame(() => this.drainOne());
  }
}

/** The studio's one queue: every live chart shares it. */
export const chartRedrawQueue = new RedrawQueue(browserFrameScheduler);
