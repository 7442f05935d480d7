import * as tf from '@tensorflow/tfjs';
import { DEFAULT_BC_LOSS_OPTIONS, bcTrainStep, drawBcInputs, type BcLossOptions } from '../flow/bc-loss';
import { diffusionBcTrainStep, drawDiffusionBcInputs } from '../diffusion/diffusion-bc';
import { ConfigError, ShapeError } from '../errors';
import { randomShift } from '../policy/random-shift';
import type { FlowPolicy } from '../policy/flow-policy';
import { createRng, restoreRng, type RngState } from '../random';
import type { BcDataset } from './bc-dataset';
import { sampledMinibatch } from './minibatches';
import { RowTable } from './row-table';
import { checkBcLoopOptions, runBcSteps, type BcLoopOptions, type BcLoopState } from './bc-step-loop';

/** A stopped stage-1 BC after some step: the loop's state, the minibatch and image-shift streams, and the open loss window. */
export interface PretrainState extends BcLoopState {
  rng: RngState;
  shiftRng: RngState;
  lossSum: number;
  lossCount: number;
}

/** Stage 1's loop options (the config's pretrain.* fields, DESIGN.md §3 "Stage 1"), and its loss reports. */
export interface PretrainOptions extends Omit<BcLoopOptions, 'afterStep' | 'resume'> {
  /** As BcLoopOptions.afterStep, with the whole stage-1 state on offer. */
  afterStep?: (step: number, averaged: <T>(use: () => Promise<T>) => Promise<T>, state: () => Promise<PretrainState>) => Promise<void>;
  /** Continue a stopped BC after this state's step (the policy already holds its raw weights). */
  resume?: PretrainState;
  /** Called every `logEvery` steps with the mean loss since the last call. */
  onProgress?: (step: number, meanLoss: number) => void;
  /** T of a diffusion policy (prediction epsilon): its BC learns ε over T DDPM steps (DESIGN.md §17). */
  diffusionSteps?: number;
  /** An image policy's random shift in pixels (policy.image_shift; DrQ); 0 or absent = none. */
  imageShift?: number;
}

/** Salt of the image-shift stream, apart from the minibatch and noise stream of the same seed. */
const IMAGE_SHIFT_SALT = 0x51f7_0a3d;

function diffusionSteps(options: PretrainOptions): number {
  if (!options.diffusionSteps) throw new ConfigError('policy.denoise_steps', 'a diffusion policy\'s BC needs its T (policy.denoise_steps)');
  return options.diffusionSteps;
}

/**
 * Stage-1 BC (DESIGN.md §3; §17 for a diffusion policy, which learns ε instead of the velocity): Adam on the encoder and velocity net over random
 * minibatches, with an exponential moving average of the weights that replaces them at the end.
 */
export async function pretrainPolicy(policy: FlowPolicy, dataset: BcDataset, options: PretrainOptions): Promise<{ finalLoss: number }> {
  checkBcLoopOptions(options);
  const rng = options.resume ? restoreRng(options.resume.rng) : createRng(options.seed);
  const bcOptions: BcLossOptions = { ...DEFAULT_BC_LOSS_OPTIONS, shortcutFraction: options.shortcutFraction };
  const { horizon, actionDim, image } = policy.options;
  if (image && !dataset.images) throw new ShapeError('images', 'an image policy learns from demos with camera images; these demos hold none');
  const samples = new RowTable(dataset.size, {
    state: { values: dataset.obs, rowShape: [dataset.obs.length / dataset.size] },
    actions: { values: dataset.actions, rowShape: [horizon, actionDim] },
  });
  // An image policy's samples carry their images, gathered by the same rows.
  const pictures = image && new RowTable<'images', { images: Uint8Array }>(dataset.size, {
    images: { values: dataset.images!, rowShape: [image.cameras.length, image.size, image.size, image.channels] },
  });
  // The shifts draw from their own stream, so the minibatches and the flow-matching noise stay those of the plain policy.
  const shiftRng = options.resume ? restoreRng(options.resume.shiftRng) : createRng((options.seed ^ IMAGE_SHIFT_SALT) >>> 0);
  const imageTensor = (rows: Int32Array): tf.Tensor | undefined => {
    if (!image || !pictures) return undefined;
    const arrays = pictures.gather(rows);
    if ((options.imageShift ?? 0) > 0) {
      arrays.images = randomShift(arrays.images, { count: rows.length * image.cameras.length, size: image.size, channels: image.channels }, options.imageShift!, shiftRng);
    }
    return pictures.tensorsOf(arrays, rows.length).images;
  };
  let lossSum = options.resume?.lossSum ?? 0;
  let lossCount = options.resume?.lossCount ?? 0;
  let finalLoss = NaN;
  const afterStep = options.afterStep;
  const loopOptions: BcLoopOptions = {
    ...options,
    afterStep: afterStep && ((step, averaged, loopState) => afterStep(step, averaged, async () => ({
      ...await loopState(), rng: rng.state(), shiftRng: shiftRng.state(), lossSum, lossCount,
    }))),
  };
  await runBcSteps(policy, loopOptions, {
    step: async (optimizer) => {
      const minibatch = sampledMinibatch(samples, rng, options.batchSize);
      const { state, actions } = minibatch.tensors();
      const images = imageTensor(minibatch.rows);
      const obs = images ? { state, images } : { state };
      try {
        const rows = minibatch.rows.length;
        const loss = policy.options.prediction === 'epsilon'
          ? await diffusionBcTrainStep(policy, optimizer, obs, actions, drawDiffusionBcInputs(rows, horizon, actionDim, diffusionSteps(options), rng), diffusionSteps(options))
          : (await bcTrainStep(policy, optimizer, obs, actions, drawBcInputs(rows, horizon, actionDim, bcOptions, rng))).loss;
        lossSum += loss;
        lossCount++;
      } finally {
        tf.dispose([state, actions, ...(images ? [images] : [])]);
      }
    },
    flush: (step) => {
      finalLoss = lossSum / lossCount;
      options.onProgress?.(step, finalLoss);
      lossSum = 0;
      lossCount = 0;
    },
  });
  return { finalLoss };
}
