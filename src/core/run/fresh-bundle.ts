import type { PolicyCheckpoint } from '../checkpoint/checkpoint-open';
import { bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import { hasPointCloud } from '../envs/task-types';
import { FlowPolicy } from '../policy/flow-policy';
import { MinMaxNormalizer, poolPointRanges } from '../policy/normalizer';
import { withObsClip, type PolicyBundle } from '../policy/policy-bundle';
import { createRng } from '../random';
import { trainSeeds } from '../rl/ppo-iteration';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import type { FlowPolicyOptions } from '../policy/options';
import { describeImageLayout, sameImageLayout } from '../envs/camera/image-layout';
import { CheckpointError } from '../errors';

/** Control steps per env of random actions whose observations set a fresh policy's observation ranges. */
export const FRESH_WARMUP_STEPS = 64;
const WARMUP_SEED_SALT = 0x2f6b_1d3;

/**
 * A freshly initialized policy for runs without a checkpoint. Observation ranges come from
 * `observed` frames, widened by ±1 so early states stay near [-1, 1]; actions span [-1, 1], which
 * every task control maps onto its actuators' ranges (DESIGN.md §13).
 */
export function freshBundle(config: RunConfig, observed: Float32Array, obsFrameSize: number, actionDim: number, cameras?: readonly string[]): PolicyBundle {
  const raw = MinMaxNormalizer.fit(observed, obsFrameSize, 'obs_normalizer').toJSON();
  const fitted = hasPointCloud(config.env.obs_type) ? poolPointRanges(raw, config.env.num_points) : raw;
  const obsNormalizer = new MinMaxNormalizer({ min: fitted.min.map((value) => value - 1), max: fitted.max.map((value) => value + 1) }, 'obs_normalizer');
  const actionNormalizer = new MinMaxNormalizer({ min: new Array(actionDim).fill(-1), max: new Array(actionDim).fill(1) }, 'action_normalizer');
  const policy = new FlowPolicy(policyOptionsFromConfig(config, obsFrameSize, actionDim, cameras), config.seed);
  return withObsClip({ policy, obsNormalizer, actionNormalizer }, config.policy.obs_clip);
}

/**
 * The observations a fresh policy is fitted to: the first seeded reset, then FRESH_WARMUP_STEPS
 * control steps of seeded uniform random actions, so velocities and moved objects are in range
 * too (a reset alone shows only the rest pose). The run resets its envs before its first rollout.
 */
export async function warmupObservations(config: RunConfig, env: BatchEnv): Promise<Float32Array> {
  const frames: Float32Array[] = [await env.reset(trainSeeds(config, env.numEnvs, 0))];
  const rng = createRng((config.seed ^ WARMUP_SEED_SALT) >>> 0);
  const chunk = config.policy.n_action_steps;
  const actions = new Float32Array(env.numEnvs * chunk * env.actionDim);
  for (let done = 0; done < FRESH_WARMUP_STEPS; done += chunk) {
    for (let index = 0; index < actions.length; index++) actions[index] = 2 * rng.uniform() - 1;
    const result = await env.stepChunk(actions, chunk, config.advantages.gamma);
    for (let envIndex = 0; envIndex < env.numEnvs; envIndex++) {
      const rows = result.steps[envIndex];
      const start = envIndex * chunk * env.obsDim;
      frames.push(result.stepObs.subarray(start, start + rows * env.obsDim));
    }
  }
  await env.drainEpisodes();
  const observed = new Float32Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let offset = 0;
  for (const frame of frames) { observed.set(frame, offset); offset += frame.length; }
  return observed;
}

/** A policy's camera images against the env's (names resolved against the scene); one sentence when they differ. */
export function checkEnvImages(options: FlowPolicyOptions, env: Pick<BatchEnv, 'imageSpec'>): void {
  const wanted = options.image;
  const given = env.imageSpec;
  if (!wanted && !given) return;
  if (wanted && given && sameImageLayout({ cameras: wanted.cameras, size: wanted.size, channels: wanted.channels }, given)) return;
  const words = (layout: typeof given) => (layout ? `camera images of ${describeImageLayout(layout)}` : 'no camera images');
  throw new CheckpointError(`the policy reads ${words(wanted && { cameras: wanted.cameras, size: wanted.size, channels: wanted.channels })}, but the env gives ${words(given)}; set env.obs_type, env.camera and env.image_size to the policy's`);
}

/**
 * A chain-policy learner (flow or diffusion) on the bundle its run starts from: the checkpoint's, or a fresh one fitted to
 * the env's warm-up observations. The bundle is freed if `make` throws.
 */
export async function learnerOnBundle<L>(config: RunConfig, env: BatchEnv, checkpoint: PolicyCheckpoint | undefined, make: (bundle: PolicyBundle) => L): Promise<L> {
  if (checkpoint) checkEnvImages(checkpoint.architecture, env);
  const bundle = checkpoint
    ? bundleFromCheckpoint(checkpoint, config.policy).bundle
    : freshBundle(config, await warmupObservations(config, env), env.obsDim, env.actionDim, env.imageSpec?.cameras);
  try {
    return make(bundle);
  } catch (error) {
    bundle.policy.dispose();
    throw error;
  }
}
