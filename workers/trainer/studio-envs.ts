/** The env workers of the studio's runs: one Web Worker per core for training, restartable when one dies. */
import { resolveEnvWorkers } from '../../src/core/config/env-workers';
import type { RunConfig } from '../../src/core/config/run-config';
import type { VectorEnvConfig } from '../../src/core/envs/vector-env-config';
import { hardwareCores } from '../env-pool';
import type { FaultInjection } from './fault-injection';
import { RestartableEnv } from './restartable-env';

/** Tries of one iteration whose env workers died and were restarted. */
const MAX_RESTARTS_PER_STEP = 3;

export class StudioEnvs {
  private envs: RestartableEnv[] = [];

  constructor(private readonly faults?: FaultInjection) {}

  /** Env workers restarted so far in the open run. */
  get restarts(): number {
    return this.envs.reduce((sum, env) => sum + env.restarts, 0);
  }

  /** Forgets the envs of a run that ended (the run disposes them). */
  clear(): void {
    this.envs = [];
  }

  /** True when `error` is a dead env worker that was restarted and the iteration may run again. */
  recovered(error: unknown, attempt: number): boolean {
    return (error as Error).name === 'EnvRestartedError' && attempt < MAX_RESTARTS_PER_STEP;
  }

  async open(config: VectorEnvConfig, purpose: 'train' | 'eval', runConfig: RunConfig): Promise<RestartableEnv> {
    // Training: one env thread per core, as on the command line; the cores take turns between env stepping and updates.
    const workers = purpose === 'train' ? resolveEnvWorkers(runConfig.env.workers, config.numEnvs, hardwareCores()) : 1;
    const env = await RestartableEnv.create(config, workers, this.faults?.shardPortOpener(purpose));
    this.envs.push(env);
    return env;
  }
}
