/**
 * Fault injection for test builds (`?faults=1` with `vite build --mode e2e`): the trainer
 * worker plugs these in as ports, so production classes carry no fault hooks.
 */
import type { ShardPort } from '../../src/core/envs/shard-protocol';
import { TrainingError } from '../../src/core/errors';
import { openBrowserShardPort } from '../env-pool';

export class FaultInjection {
  private readonly crashers: { purpose: string; crash: () => void }[] = [];
  private throwNext?: 'failure' | 'nonfinite-updates';

  /** An opener of env shard ports that a later killEnvWorker() can crash. */
  shardPortOpener(purpose: 'train' | 'eval' | 'idle'): () => ShardPort {
    return () => this.openShardPort(purpose);
  }

  private openShardPort(purpose: string): ShardPort {
    const port = openBrowserShardPort();
    const errorHandlers: ((error: Error) => void)[] = [];
    port.onError?.((error) => errorHandlers.forEach((handler) => handler(error)));
    this.crashers.push({
      purpose,
      crash: () => {
        void port.terminate();
        errorHandlers.forEach((handler) => handler(new Error('the worker was terminated')));
      },
    });
    return { ...port, onError: (handler) => void errorHandlers.push(handler) };
  }

  /** Terminates the newest training env worker as if it had crashed. */
  killEnvWorker(): void {
    const entry = this.crashers.filter((candidate) => candidate.purpose === 'train').at(-1);
    if (!entry) throw new TrainingError('there are no env workers to crash: start a run first');
    entry.crash();
  }

  /** The next iteration throws: a plain failure, or the stop that repeated non-finite updates cause. */
  failNextStep(kind: 'failure' | 'nonfinite-updates' = 'failure'): void {
    this.throwNext = kind;
  }

  /** Called before every training iteration. */
  beforeStep(): void {
    const kind = this.throwNext;
    if (!kind) return;
    this.throwNext = undefined;
    if (kind === 'nonfinite-updates') {
      throw new TrainingError('3 updates in a row had a non-finite loss or gradient (injected fault)', 'nonfinite-updates');
    }
    throw new TrainingError('the trainer failed on purpose (injected fault)');
  }
}
