/**
 * Pause, step and stop for the one loop (core/run's trainLoop) as the studio drives it: a pause
 * asked between iterations ends the loop; one that lands inside an iteration waits at the run's
 * pause gate (the next decision or PPO minibatch) until Train opens it or Reset aborts it.
 */
import type { PausePoint } from '../../src/core/run/run-ports';
import { DecisionGate } from './decision-gate';

/** How the training loop ended: every iteration done, paused (or stopped), or failed with a sentence. */
export type LoopOutcome = ({ kind: 'done' | 'paused' | 'reset' } | { kind: 'error'; message: string }) & { runId?: string };

export class LoopControl {
  private readonly gate = new DecisionGate();
  private pauseRequested = false;
  private stepsLeft = Infinity;
  private loop?: Promise<void>;
  /** A loop is under way (running, or parked at the gate). */
  active = false;
  /** Where a pause inside an iteration landed. */
  pausedAt: PausePoint = 'decision';

  /** The run's pause gate (RunPorts.pauseGate). */
  readonly pauseGate = (where: PausePoint): Promise<void> => {
    this.pausedAt = where;
    return this.gate.pass();
  };

  /** Asked by the loop before every iteration. */
  readonly shouldStop = (): boolean => this.pauseRequested || this.stepsLeft <= 0;

  /** Counts a finished iteration against the step limit. */
  countIteration(): void {
    this.stepsLeft--;
  }

  /** Starts `body` as the loop, or, parked inside an iteration, lets it go on; at most `steps` more iterations. */
  go(steps: number, body: () => Promise<void>): void {
    this.stepsLeft = steps;
    this.pauseRequested = false;
    const parked = this.active;
    this.gate.open();
    if (parked) return;
    this.active = true;
    this.loop = body().finally(() => {
      this.active = false;
    });
  }

  /** Asks for a pause; resolves once the loop ended or parked. True when it parked inside an iteration. */
  async pause(): Promise<boolean> {
    this.pauseRequested = true;
    this.pausedAt = 'decision';
    this.gate.close();
    await Promise.race([this.loop, this.gate.blocked()]);
    return this.active;
  }

  /** Ends a parked loop with `error` (a reset) and waits for it to unwind. */
  async abort(error: Error): Promise<void> {
    if (this.gate.closed) {
      this.gate.abort(error);
      await this.loop;
    }
    this.pauseRequested = false;
  }

  async settled(): Promise<void> {
    await this.loop;
  }
}
