/**
 * Keeps tfjs work apart from a backend switch: short tfjs calls (chain samples, probes, exports)
 * run side by side through `use`, and a backend timing runs `exclusive`ly, after the calls in
 * flight end and before any new one starts. Exclusive sections run one after another.
 */
export class TfGate {
  private users = 0;
  private drained?: () => void;
  private exclusiveTail: Promise<void> = Promise.resolve();
  private exclusiveQueued = 0;

  async use<T>(work: () => Promise<T>): Promise<T> {
    while (this.exclusiveQueued > 0) await this.exclusiveTail;
    this.users++;
    try {
      return await work();
    } finally {
      this.users--;
      if (this.users === 0) this.drained?.();
    }
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.exclusiveQueued++;
    const run = this.exclusiveTail.then(async () => {
      while (this.users > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return work();
    });
    this.exclusiveTail = run.then(() => undefined, () => undefined);
    return run.finally(() => this.exclusiveQueued--);
  }
}
