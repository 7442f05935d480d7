/**
 * The Node host's ports for a run (DESIGN.md §2): training envs sharded over worker_threads
 * (env.workers; 0 = one per available core), evaluation envs in this thread.
 */
import { availableParallelism } from 'node:os';
import type { RunConfig } from '../core/config/run-config';
import { resolveEnvWorkers } from '../core/config/env-workers';
import { InThreadBatchEnv } from '../core/envs/in-thread-batch-env';
import type { RunPorts } from '../core/run/run-ports';
import { createNodeShardedEnv, loadMujocoNode } from './mujoco-node';

export function nodeRunPorts(config: RunConfig): RunPorts {
  return {
    openEnv: async (envConfig, purpose) => {
      const workers = purpose === 'train' ? resolveEnvWorkers(config.env.workers, envConfig.numEnvs, availableParallelism()) : 1;
      if (workers > 1) return createNodeShardedEnv(envConfig, { numWorkers: workers });
      return new InThreadBatchEnv(await loadMujocoNode(), envConfig);
    },
  };
}
