/**
 * The worker side of a sharded vector env: owns one VectorEnv over a
 * contiguous slice of the batch and answers ShardRequests. Runs unchanged in a
 * worker_thread and in a Web Worker; the MuJoCo module is passed in.
 */
import type { Mujoco } from './mujoco-types';
import { collectExpertDemos } from './expert-rollout';
import { VectorEnv } from './vector-env';
import { loadTaskModule } from './task-definition';
import { getTask, hasTask, registerTask } from './task-registry';
import type { ShardErrorPayload, ShardInitResult, ShardPort, ShardReply, ShardRequest, ShardResetPayload, ShardSharedBuffers, ShardStepPayload } from './shard-protocol';

function errorPayload(error: unknown): ShardErrorPayload {
  if (error instanceof Error) {
    const extra = error as Error & { envIndex?: number; field?: string };
    return { name: error.name, message: error.message, envIndex: extra.envIndex, field: extra.field };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * Registers the request handler at once (so no message is lost while the
 * module loads) and answers requests in arrival order.
 */
export interface ShardServerOptions {
  /** Imports a user's task module (DESIGN.md §13); the default is the platform's dynamic import. */
  importModule?: (url: string) => Promise<unknown>;
}

const dynamicImport = (url: string): Promise<unknown> => import(/* @vite-ignore */ url);

export function serveEnvShard(mujoco: Mujoco | Promise<Mujoco>, port: ShardPort, options: ShardServerOptions = {}): void {
  let mj: Mujoco | null = null;
  let env: VectorEnv | null = null;
  let shared: ShardSharedBuffers | null = null;

  const signal = (id: number, failed: boolean) => {
    if (!shared) return;
    const control = new Int32Array(shared.control);
    Atomics.store(control, 1, failed ? 1 : 0);
    Atomics.store(control, 0, id);
    Atomics.notify(control, 0);
  };

  const handle = (request: ShardRequest): { result: unknown; transfer: Transferable[] } => {
    if (request.type === 'init') {
      env?.dispose();
      env = new VectorEnv(mj!, request.config);
      shared = request.shared;
      const result: ShardInitResult = { obsDim: env.obsDim, actionDim: env.config.actionDim, ...(env.imageSpec ? { imageSpec: env.imageSpec } : {}) };
      return { result, transfer: [] };
    }
    if (request.type === 'buffers') {
      shared = request.shared;
      return { result: null, transfer: [] };
    }
    if (!env) throw new Error('env shard used before init');
    switch (request.type) {
      case 'reset': {
        const obs = env.reset(request.seeds);
        const images = env.imageSpec ? env.images() : undefined;
        if (shared) {
          new Float32Array(shared.obs).set(obs);
          if (images) new Uint8Array(shared.images!).set(images);
          return { result: null, transfer: [] };
        }
        const payload: ShardResetPayload = { obs, ...(images ? { images } : {}) };
        return { result: payload, transfer: images ? [obs.buffer, images.buffer] : [obs.buffer] };
      }
      case 'step': {
        const count = env.numEnvs * request.nSteps * env.config.actionDim;
        const actions = request.actions ?? new Float32Array(shared!.actions, 0, count);
        const chunk = env.stepChunk(actions, request.nSteps, request.gamma);
        const flags = new Uint8Array(env.numEnvs * 3);
        for (let envIndex = 0; envIndex < env.numEnvs; envIndex++) {
          flags[envIndex * 3] = chunk.terminated[envIndex];
          flags[envIndex * 3 + 1] = chunk.truncated[envIndex];
          flags[envIndex * 3 + 2] = chunk.success[envIndex];
        }
        if (shared) {
          new Float32Array(shared.obs).set(chunk.obs);
          new Float32Array(shared.finalObs).set(chunk.finalObs);
          new Float32Array(shared.stepObs).set(chunk.stepObs);
          new Float32Array(shared.reward).set(chunk.reward);
          new Int32Array(shared.steps).set(chunk.steps);
          new Uint8Array(shared.flags).set(flags);
          if (chunk.images) new Uint8Array(shared.images!).set(chunk.images);
          if (chunk.finalImages) new Uint8Array(shared.finalImages!).set(chunk.finalImages);
          return { result: null, transfer: [] };
        }
        const payload: ShardStepPayload = { obs: chunk.obs, finalObs: chunk.finalObs, stepObs: chunk.stepObs, reward: chunk.reward, steps: chunk.steps, flags };
        const transfer: Transferable[] = [chunk.obs.buffer, chunk.finalObs.buffer, chunk.stepObs.buffer, chunk.reward.buffer, chunk.steps.buffer, flags.buffer];
        if (chunk.images && chunk.finalImages) {
          payload.images = chunk.images;
          payload.finalImages = chunk.finalImages;
          transfer.push(chunk.images.buffer, chunk.finalImages.buffer);
        }
        return { result: payload, transfer };
      }
      case 'drain': {
        const episodes = env.drainEpisodes();
        return { result: episodes, transfer: episodes.map((episode) => episode.qpos.buffer) };
      }
      case 'metrics':
        return { result: env.metrics(), transfer: [] };
      case 'snapshot':
        return { result: env.snapshot(), transfer: [] };
      case 'restore':
        env.restore(request.snapshot);
        return { result: null, transfer: [] };
      case 'expert': {
        const { task, obsMode, numPoints, cameras, imageSize } = env.config;
        const demos = collectExpertDemos(mj!, { task, obsMode, numPoints, cameras, imageSize, episodes: request.seeds.length, seed: 0, seeds: request.seeds, noise: request.noise });
        const transfer: Transferable[] = [demos.obs.buffer, demos.actions.buffer, demos.rewards.buffer, demos.episodeStarts.buffer, demos.success.buffer, demos.seeds.buffer];
        if (demos.images) transfer.push(demos.images.buffer);
        return { result: demos, transfer };
      }
      case 'dispose':
        env.dispose();
        env = null;
        return { result: null, transfer: [] };
    }
  };

  /** A user's task this worker has not loaded yet is imported before the env is built. */
  const ensureTask = async (request: ShardRequest) => {
    if (request.type !== 'init' || !request.config.taskModule) return;
    const registered = hasTask(request.config.task) ? getTask(request.config.task) : undefined;
    if (registered?.module?.url === request.config.taskModule.url) return;
    registerTask(await loadTaskModule(request.config.taskModule, options.importModule ?? dynamicImport, mj!), { replace: true });
  };

  const answer = async (request: ShardRequest) => {
    let reply: ShardReply;
    let transfer: Transferable[] = [];
    const dataInSharedMemory = shared !== null && (request.type === 'reset' || request.type === 'step');
    try {
      await ensureTask(request);
      const handled = handle(request);
      reply = { id: request.id, ok: true, result: handled.result };
      transfer = handled.transfer;
    } catch (error) {
      reply = { id: request.id, ok: false, error: errorPayload(error) };
    }
    // Shared mode: results are in shared memory; errors still travel as messages, posted before the signal.
    if (!reply.ok || !dataInSharedMemory) port.postMessage(reply, transfer);
    if (dataInSharedMemory) signal(request.id, !reply.ok);
  };

  let queue: Promise<void> = Promise.resolve(mujoco).then((loaded) => {
    mj = loaded;
  });
  port.onMessage((message) => {
    queue = queue.then(() => answer(message as ShardRequest));
  });
}
