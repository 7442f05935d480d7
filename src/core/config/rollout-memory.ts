/**
 * The memory one rollout asks for (src/core/rl/rollout-buffer.ts), from the config alone, so a
 * config that could never hold its rollout is refused before anything starts instead of ending in
 * an allocation failure (MuJoCo's, or the JS engine's) minutes into a run.
 */
import { configActionDim } from '../envs/task-controls';
import { observationSpec } from '../envs/observation';
import { getTask } from '../envs/task-registry';
import { imageBytes } from '../envs/camera/image-layout';
import { parseCameraList } from '../envs/camera/camera-lookup';
import type { RunConfig } from './run-config';

/**
 * The most one rollout buffer may take. The largest configs that train in reasonable time stay
 * well under it (4096 envs × 32 decisions of a 256-point cloud policy is about 0.8 GiB), and the
 * buffer shares its thread's memory with the policy, the update's minibatches and, in the studio,
 * the rest of the page, where a few GiB is all a browser tab can hold.
 */
export const MAX_ROLLOUT_BYTES = 2 ** 31;

/**
 * Bytes the rollout buffer keeps per decision: the stacked observation (an upper bound when a
 * frozen encoder's features are kept instead), the chain [K+1, H, A], the stochastic-step mask [K],
 * the log-prob units (at most Ta·A), 7 floats (value, reward, chunk steps, final value, mask,
 * advantage, return), 3 flags, and for image observations one observation's uint8 camera images
 * (kept once per decision; an upper bound too when a frozen encoder's features replace them).
 */
export function rolloutBytesPerDecision(config: RunConfig): number {
  const spec = observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points, { cameras: parseCameraList(config.env.camera), imageSize: config.env.image_size });
  const actions = configActionDim(config);
  const { denoise_steps: denoiseSteps, horizon, n_obs_steps: nObsSteps, n_action_steps: nActionSteps } = config.policy;
  const floats = nObsSteps * spec.dim + (denoiseSteps + 1) * horizon * actions + denoiseSteps + nActionSteps * actions + 7;
  return 4 * floats + 3 + (spec.image ? imageBytes(spec.image) : 0);
}

const gibibytes = (bytes: number) => (bytes / 2 ** 30).toFixed(1);

/** Null when one rollout of `decisions` fits MAX_ROLLOUT_BYTES, else the problem in one sentence naming num_envs and env.steps_per_iteration. */
export function rolloutMemoryProblem(config: RunConfig, decisions: number): string | null {
  const perDecision = rolloutBytesPerDecision(config);
  const bytes = decisions * perDecision;
  if (bytes <= MAX_ROLLOUT_BYTES) return null;
  const most = Math.floor(MAX_ROLLOUT_BYTES / perDecision);
  return `num_envs × env.steps_per_iteration (${config.num_envs} × ${config.env.steps_per_iteration} = ${decisions} decisions) needs a ${gibibytes(bytes)} GiB rollout buffer `
    + `(${perDecision} bytes per decision), over the ${MAX_ROLLOUT_BYTES / 2 ** 30} GiB one run may hold; lower either so that their product is at most ${most}`;
}
