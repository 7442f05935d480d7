import type { Demonstrations } from '../envs/expert-rollout';
import { ShapeError } from '../errors';
import { MinMaxNormalizer, poolPointRanges } from '../policy/normalizer';
import { imageBytes } from '../envs/camera/image-layout';

/** Flow-matching BC samples cut from demonstrations (DESIGN.md §3 "Stage 1"), in normalized units. */
export interface BcDataset {
  size: number;
  /** [S, nObs·obsDim] stacked, normalized observation history. */
  obs: Float32Array;
  /** Image demos: [S × imageBytes] each sample's camera images, uint8 as recorded (never normalized). */
  images?: Uint8Array;
  /** [S, H, A] normalized action chunk. */
  actions: Float32Array;
  obsNormalizer: MinMaxNormalizer;
  actionNormalizer: MinMaxNormalizer;
}

/**
 * Smallest half range of an observation feature's normalizer, in env units (m, rad, m/s). A
 * feature that barely moves in the demos (the TCP's orientation, say) would otherwise be scaled
 * by hundreds, and the small drift RL brings would push the policy far outside its inputs.
 */
export const MIN_OBS_HALF_RANGE = 0.05;

/** Stats with each feature's range widened to at least ±minHalfRange around its centre. */
function widened(normalizer: MinMaxNormalizer, minHalfRange: number): MinMaxNormalizer {
  const { min, max } = normalizer.toJSON();
  for (let featureIndex = 0; featureIndex < min.length; featureIndex++) {
    const center = (min[featureIndex] + max[featureIndex]) / 2;
    min[featureIndex] = Math.min(min[featureIndex], center - minHalfRange);
    max[featureIndex] = Math.max(max[featureIndex], center + minHalfRange);
  }
  return new MinMaxNormalizer({ min, max }, 'obs_normalizer');
}

/**
 * Stage 1's normalizers, fit on the demos: point ranges pooled, every observation range widened to the floor, and
 * normalized observations clamped to ±obsClip when it is positive.
 */
function fitNormalizers(demos: Demonstrations, numPoints: number | undefined, obsClip: number): { obsNormalizer: MinMaxNormalizer; actionNormalizer: MinMaxNormalizer } {
  const fitted = MinMaxNormalizer.fit(demos.obs, demos.obsDim, 'obs_normalizer');
  const pooled = numPoints ? new MinMaxNormalizer(poolPointRanges(fitted.toJSON(), numPoints), 'obs_normalizer') : fitted;
  const obsNormalizer = widened(pooled, MIN_OBS_HALF_RANGE).withClip(obsClip > 0 ? obsClip : undefined);
  return { obsNormalizer, actionNormalizer: MinMaxNormalizer.fit(demos.actions, demos.actionDim, 'action_normalizer') };
}

/**
 * One sample per demo step t: the history (obs_{t−nObs+1..t}, the episode's first obs repeated
 * before its start) and the chunk actions_{t..t+H−1} (the episode's last action repeated past
 * its end). Only successful episodes are used unless `includeFailures`. With `numPoints`, frames
 * start with that many points, whose ranges are pooled (`poolPointRanges`). With `normalizers`
 * (a trained policy's, as stage 2 continues it) those are used instead of fitting new ones; otherwise `obsClip` > 0
 * clamps the fitted observation normalizer (`policy.obs_clip`).
 */
export function buildBcDataset(
  demos: Demonstrations,
  nObsSteps: number,
  horizon: number,
  options: { includeFailures?: boolean; numPoints?: number; obsClip?: number; normalizers?: { obs: MinMaxNormalizer; action: MinMaxNormalizer } } = {},
): BcDataset {
  const { obsDim, actionDim } = demos;
  const episodes = demos.success.length;
  if (demos.episodeStarts.length !== episodes + 1) {
    throw new ShapeError('episodeStarts', `episodeStarts has ${demos.episodeStarts.length} entries; expected episodes + 1 = ${episodes + 1}`);
  }
  const { obsNormalizer, actionNormalizer } = options.normalizers
    ? { obsNormalizer: options.normalizers.obs, actionNormalizer: options.normalizers.action }
    : fitNormalizers(demos, options.numPoints, options.obsClip ?? 0);
  const normObs = obsNormalizer.normalize(demos.obs);
  const normActions = actionNormalizer.normalize(demos.actions);
  const rows: number[] = [];
  for (let episodeIndex = 0; episodeIndex < episodes; episodeIndex++) {
    if (!options.includeFailures && !demos.success[episodeIndex]) continue;
    for (let row = demos.episodeStarts[episodeIndex]; row < demos.episodeStarts[episodeIndex + 1]; row++) rows.push(row);
  }
  if (rows.length === 0) throw new ShapeError('demos', 'the demonstrations hold no usable steps (no successful episodes)');
  const episodeOf = new Int32Array(demos.obs.length / obsDim);
  for (let episodeIndex = 0; episodeIndex < episodes; episodeIndex++) {
    episodeOf.fill(episodeIndex, demos.episodeStarts[episodeIndex], demos.episodeStarts[episodeIndex + 1]);
  }
  const stacked = nObsSteps * obsDim;
  const obs = new Float32Array(rows.length * stacked);
  // Images keep no history: a sample holds its own step's images (image policies read one observation).
  const imageWidth = demos.imageSpec ? imageBytes(demos.imageSpec) : 0;
  if (imageWidth > 0 && nObsSteps !== 1) throw new ShapeError('n_obs_steps', `image demos train policies of one observation (n_obs_steps 1), got n_obs_steps ${nObsSteps}`);
  const images = imageWidth > 0 ? new Uint8Array(rows.length * imageWidth) : undefined;
  const actions = new Float32Array(rows.length * horizon * actionDim);
  rows.forEach((row, sampleIndex) => {
    const episodeIndex = episodeOf[row];
    const first = demos.episodeStarts[episodeIndex];
    const last = demos.episodeStarts[episodeIndex + 1] - 1;
    for (let slot = 0; slot < nObsSteps; slot++) {
      const source = Math.max(first, row - (nObsSteps - 1 - slot));
      obs.set(normObs.subarray(source * obsDim, (source + 1) * obsDim), sampleIndex * stacked + slot * obsDim);
    }
    images?.set(demos.images!.subarray(row * imageWidth, (row + 1) * imageWidth), sampleIndex * imageWidth);
    for (let position = 0; position < horizon; position++) {
      const source = Math.min(last, row + position);
      actions.set(normActions.subarray(source * actionDim, (source + 1) * actionDim), (sampleIndex * horizon + position) * actionDim);
    }
  });
  return { size: rows.length, obs, ...(images ? { images } : {}), actions, obsNormalizer, actionNormalizer };
}
