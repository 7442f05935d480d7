/**
 * DPPO's minibatch objective over one rollout (DESIGN.md §17): every decision's K' fine-tuned denoising steps become K'
 * PPO samples (obs, x_k, x_{k+1}, k) with the decision's advantage, return, value and the step's stored log-probs; the
 * update shuffles them as one table, as DPPO's agent flattens (steps × envs × K') before its minibatches.
 */
import type * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import type { FlowPolicy } from '../policy/flow-policy';
import type { ImageEncoderOptions } from '../policy/image-encoder-options';
import { isCriticParameter } from '../policy/param-shapes';
import type { Rng } from '../random';
import type { MinibatchObjective } from '../rl/ppo-epochs';
import type { RolloutBuffer } from '../rl/rollout-buffer';
import { minibatchObs } from '../rl/ppo-minibatch-loss';
import { RowTable, type RowValues } from '../rl/row-table';
import { shiftedImageTensors } from '../rl/update-image-shift';
import { baseChains } from './diffusion-sampler';
import { chainCoefficients, fineTunedFrom } from './diffusion-step';
import type { DiffusionSettings } from './diffusion-settings';
import { dppoMinibatchLoss, type DppoLossOptions, type DppoMinibatch } from './dppo-loss';

/**
 * The rollout's decisions × K' steps as rows (row d·K' + k), and the loss mask repeated over the steps. A decision's
 * observation and camera images (when the buffer keeps them, `image` their layout) are stored once and shared by its K'
 * rows.
 */
export function dppoRowTable(
  buffer: RolloutBuffer,
  advantages: Float32Array,
  returns: Float32Array,
  mask: Float32Array,
  ftSteps: number,
  image?: ImageEncoderOptions,
): { table: RowTable<string, Record<string, RowValues>>; mask: Float32Array } {
  const { obsSize, chainSize } = buffer.shape;
  const decisions = buffer.entries;
  const element = chainSize / (ftSteps + 1);
  const rows = decisions * ftSteps;
  const prev = new Float32Array(rows * element);
  const next = new Float32Array(rows * element);
  const step = new Float32Array(rows);
  const perRow = (source: Float32Array) => {
    const out = new Float32Array(rows);
    for (let row = 0; row < rows; row++) out[row] = source[Math.floor(row / ftSteps)];
    return out;
  };
  for (let decision = 0; decision < decisions; decision++) {
    const chain = buffer.chains.subarray(decision * chainSize, (decision + 1) * chainSize);
    for (let k = 0; k < ftSteps; k++) {
      const row = decision * ftSteps + k;
      prev.set(chain.subarray(k * element, (k + 1) * element), row * element);
      next.set(chain.subarray((k + 1) * element, (k + 2) * element), row * element);
      step[row] = k;
    }
  }
  const keepsImages = image !== undefined && (buffer.shape.imageBytes ?? 0) > 0;
  // Per-element log-probs of one step: H·A of the decision's K'·H·A.
  const logProbsPerStep = buffer.shape.logProbUnits / ftSteps;
  const table = new RowTable<string, Record<string, RowValues>>(rows, {
    state: { values: buffer.obs, rowShape: [obsSize], rowsPerValue: ftSteps },
    ...(keepsImages ? { images: { values: buffer.images, rowShape: [image.cameras.length, image.size, image.size, image.channels], rowsPerValue: ftSteps } } : {}),
    prev: { values: prev, rowShape: [element] },
    next: { values: next, rowShape: [element] },
    step: { values: step, rowShape: [] },
    advantages: { values: perRow(advantages), rowShape: [] },
    returns: { values: perRow(returns), rowShape: [] },
    oldValues: { values: perRow(buffer.values), rowShape: [] },
    oldLogProbs: { values: buffer.oldLogProbs, rowShape: [logProbsPerStep] },
  });
  return { table, mask: perRow(mask) };
}

/** The loss settings of a run config. */
export function dppoLossOptions(config: RunConfig, settings: DiffusionSettings, policy: FlowPolicy, criticOnly: boolean): DppoLossOptions {
  const { ppo, dppo } = config;
  return {
    coefficients: chainCoefficients(settings, policy.options),
    firstTuned: fineTunedFrom(settings),
    ftSteps: settings.ftSteps,
    denoisedClip: settings.denoisedClip,
    ddim: settings.ddimSteps > 0,
    minLogprobStd: settings.minLogprobStd,
    rewardHorizon: config.policy.n_action_steps,
    logProbRange: ppo.logprob_clamp ? { min: ppo.logprob_min, max: ppo.logprob_max } : undefined,
    normalizeAdvantages: config.advantages.normalize,
    quantiles: { low: dppo.adv_quantile_low, high: dppo.adv_quantile_high },
    gammaDenoising: dppo.gamma_denoising,
    clipLow: ppo.clip_low,
    clipHigh: ppo.clip_high,
    clipBase: dppo.clip_base,
    clipRate: dppo.clip_rate,
    critic: { lossType: ppo.value_loss, huberDelta: ppo.huber_delta, clipRange: ppo.value_clip > 0 ? ppo.value_clip : undefined },
    weights: { valueCoef: ppo.value_coef, entropyCoef: 0, bcCoef: ppo.bc_coef },
    criticOnly,
  };
}

export interface DppoObjectiveInputs {
  policy: FlowPolicy;
  /** The frozen base net: the early steps' sampler and the BC term's teacher. */
  base: FlowPolicy;
  buffer: RolloutBuffer;
  advantages: Float32Array;
  returns: Float32Array;
  mask: Float32Array;
  config: RunConfig;
  settings: DiffusionSettings;
  criticOnly: boolean;
  /** The BC term's chains come from this stream. */
  bcRng: Rng;
  /** The stream of the camera images' random shifts (policy.image_shift), for an image policy. */
  shiftRng?: Rng;
}

export function dppoObjective(inputs: DppoObjectiveInputs): MinibatchObjective {
  const { policy, base, config, settings, criticOnly } = inputs;
  const { horizon, actionDim } = policy.options;
  const options = dppoLossOptions(config, settings, policy, criticOnly);
  const { table, mask } = dppoRowTable(inputs.buffer, inputs.advantages, inputs.returns, inputs.mask, settings.ftSteps, policy.options.image);
  // Stored images are shifted per minibatch (DrQ), for the fine-tuned net and the BC term's base net alike.
  const shifted = shiftedImageTensors(table, policy.options.image, config.policy.image_shift, inputs.shiftRng);
  const bc = config.ppo.bc_coef > 0 && !criticOnly;
  const shaped = (batch: Record<string, tf.Tensor>): DppoMinibatch => {
    const rows = batch.state.shape[0];
    const reshape = (tensor: tf.Tensor) => tensor.reshape([rows, horizon, actionDim]);
    return {
      state: batch.state, ...(batch.images ? { images: batch.images } : {}), prev: reshape(batch.prev), next: reshape(batch.next), step: batch.step,
      advantages: batch.advantages, returns: batch.returns, oldValues: batch.oldValues, oldLogProbs: reshape(batch.oldLogProbs),
    };
  };
  return {
    table,
    mask,
    ...(shifted ? { tensors: shifted } : {}),
    variables: (onlyCritic) => {
      const selected = new Map<string, tf.Variable>();
      for (const [name, variable] of policy.namedVariables()) if (!onlyCritic || isCriticParameter(name)) selected.set(name, variable);
      return selected;
    },
    isCritic: isCriticParameter,
    clip: 'apart',
    prepare: bc ? (batch) => [baseChains(base, minibatchObs({ state: batch.state, images: batch.images }, false), settings, inputs.bcRng)] : undefined,
    loss: (batch, prepared) => dppoMinibatchLoss(policy, shaped(batch), options, prepared[0]),
  };
}
