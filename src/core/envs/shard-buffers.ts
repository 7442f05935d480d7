import type { ShardSharedBuffers } from './shard-protocol';

/** Sizes of one shard's shared buffers. */
export interface ShardBufferSizes {
  numEnvs: number;
  obsDim: number;
  actionDim: number;
  /** Image bytes per env per observation (0 without images). */
  imageBytes: number;
  /** Longest chunk the action and per-step observation buffers hold. */
  maxChunkSteps: number;
}

/** The SharedArrayBuffers a shard's actions and results live in when envs run over shared memory. */
export function allocateShardBuffers(sizes: ShardBufferSizes): ShardSharedBuffers {
  const { numEnvs, obsDim, actionDim, maxChunkSteps } = sizes;
  const obsBytes = numEnvs * obsDim * 4;
  const images = numEnvs * sizes.imageBytes;
  return {
    ...(images > 0 ? { images: new SharedArrayBuffer(images), finalImages: new SharedArrayBuffer(images) } : {}),
    control: new SharedArrayBuffer(8),
    actions: new SharedArrayBuffer(numEnvs * maxChunkSteps * actionDim * 4),
    maxChunkSteps,
    obs: new SharedArrayBuffer(obsBytes),
    finalObs: new SharedArrayBuffer(obsBytes),
    stepObs: new SharedArrayBuffer(obsBytes * maxChunkSteps),
    reward: new SharedArrayBuffer(numEnvs * 4),
    steps: new SharedArrayBuffer(numEnvs * 4),
    flags: new SharedArrayBuffer(numEnvs * 3),
  };
}
