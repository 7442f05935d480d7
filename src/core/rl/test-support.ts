/**
 * Shared fixtures for the RL engine tests: a tiny run config, a fresh policy bundle,
 * real MuJoCo envs wrapped as ChunkEnvs, and exact weight snapshots.
 */
import * as tf from '@tensorflow/tfjs';
import { applyOverrides, defaultConfig, validateConfig, type RunConfig } from '../config';
import type { Mujoco } from '../envs/mujoco-types';
import { VectorEnv } from '../envs/vector-env';
import { FlowPolicy } from '../policy/flow-policy';
import { MinMaxNormalizer } from '../policy/normalizer';
import { chunkEnvFromVectorEnv, type ChunkEnv } from './chunk-env';
import type { PolicyBundle } from './policy-bundle';
import { policyOptionsFromConfig } from './policy-setup';

/**
 * A run small enough for unit tests: reach, 4 envs × 2 decisions, hidden [32, 32],
 * H = 4, 2 executed steps, K = 3, one epoch of 2 minibatches, no critic warm-up.
 */
export function tinyConfig(overrides: readonly string[] = []): RunConfig {
  return validateConfig(
    applyOverrides(defaultConfig(), [
      'task=reach',
      'seed=3',
      'num_envs=4',
      'iterations=4',
      'total_env_steps=0',
      'eval_episodes=2',
      'eval.every=0',
      'env.steps_per_iteration=2',
      'ppo.minibatch_size=4',
      'ppo.epochs=1',
      'ppo.critic_warmup_steps=0',
      'policy.hidden=32,32',
      'policy.encoder_hidden=32',
      'policy.value_hidden=32',
      'policy.noise_head_hidden=16',
      'policy.horizon=4',
      'policy.n_action_steps=2',
      'policy.denoise_steps=3',
      'advantages.group_size=2',
      ...overrides,
    ]),
  );
}

/** A fresh policy for `config` with fixed normalizers: obs in [-2, 2], actions in [-1, 1]. */
export function freshBundle(config: RunConfig, obsDim: number, actionDim: number, seed = 1): PolicyBundle {
  const policy = new FlowPolicy(policyOptionsFromConfig(config, obsDim, actionDim), seed);
  return {
    policy,
    obsNormalizer: new MinMaxNormalizer({ min: new Array(obsDim).fill(-2), max: new Array(obsDim).fill(2) }, 'obs_normalizer'),
    actionNormalizer: new MinMaxNormalizer({ min: new Array(actionDim).fill(-1), max: new Array(actionDim).fill(1) }, 'action_normalizer'),
  };
}

/** A real single-process MuJoCo env batch on `config.task`. */
export function openChunkEnv(mj: Mujoco, config: RunConfig, numEnvs = config.num_envs): ChunkEnv {
  return chunkEnvFromVectorEnv(new VectorEnv(mj, { task: config.task, numEnvs, recordEpisodes: false }));
}

/** Copies of every parameter, by name. */
export async function weightSnapshot(bundle: PolicyBundle): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  for (const [name, variable] of bundle.policy.namedVariables()) out.set(name, ((await variable.data()) as Float32Array).slice());
  return out;
}

/** Bit patterns of float32 values, so −0 and NaN payloads compare exactly. */
export function bitsOf(values: Float32Array): Uint32Array {
  return new Uint32Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
}

/** Names of the parameters whose bits differ between two snapshots (both must list the same names). */
export function changedParameters(before: ReadonlyMap<string, Float32Array>, after: ReadonlyMap<string, Float32Array>): string[] {
  const changed: string[] = [];
  for (const [name, values] of before) {
    const other = after.get(name);
    const otherBits = other ? bitsOf(other) : undefined;
    if (!otherBits || otherBits.length !== values.length || bitsOf(values).some((bits, index) => bits !== otherBits[index])) changed.push(name);
  }
  return changed;
}

/** Live tensors right now (for leak checks). */
export function liveTensors(): number {
  return tf.memory().numTensors;
}
