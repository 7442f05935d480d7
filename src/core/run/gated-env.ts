import type { BatchEnv } from '../envs/batch-env';

/** A batch whose every chunk step first awaits `gate`: a host's pause point between decisions. */
export function gatedEnv(env: BatchEnv, gate: () => Promise<void>): BatchEnv {
  return {
    get numEnvs() { return env.numEnvs; },
    get obsDim() { return env.obsDim; },
    get actionDim() { return env.actionDim; },
    get imageSpec() { return env.imageSpec; },
    reset: (seeds) => env.reset(seeds),
    ...(env.images ? { images: () => env.images!() } : {}),
    stepChunk: async (actions, nSteps, gamma) => {
      await gate();
      return env.stepChunk(actions, nSteps, gamma);
    },
    drainEpisodes: () => env.drainEpisodes(),
    metrics: () => env.metrics(),
    snapshot: () => env.snapshot(),
    restore: (snapshot) => env.restore(snapshot),
    dispose: () => env.dispose(),
  };
}
