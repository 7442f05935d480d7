/**
 * How a diffusion policy acts in the shared chain rollout (collectDecisions; DESIGN.md §16, §17): one stochastic chain
 * per decision, its frozen base net on the steps before the last K' and the fine-tuned net on those, both reading the
 * observation and, for an image policy, its camera images, which the buffer stores once per decision beside it.
 */
import * as tf from '@tensorflow/tfjs';
import type { FlowPolicy } from '../policy/flow-policy';
import { imagePixelBytes } from '../policy/image-encoder-options';
import type { Rng } from '../random';
import type { RolloutDecider } from '../rl/collect-rollout';
import { withPolicyObs } from '../rl/policy-input';
import { sampleDiffusion } from './diffusion-sampler';
import type { DiffusionSettings } from './diffusion-settings';

/** The decider of `policy` with its frozen `base`, for stacked observations of `stackedDim` values. */
export function diffusionDecider(policy: FlowPolicy, base: FlowPolicy, settings: DiffusionSettings, stackedDim: number, rng: Rng): RolloutDecider {
  const { horizon, actionDim, image } = policy.options;
  const ft = settings.ftSteps;
  return {
    shape: {
      obsSize: stackedDim, chainSize: (ft + 1) * horizon * actionDim, denoiseSteps: ft, logProbUnits: ft * horizon * actionDim,
      imageBytes: image ? imagePixelBytes(image) : 0,
    },
    decide: (obs, images) => withPolicyObs(policy.options, obs, images, async (input) => {
      const sample = await sampleDiffusion(policy, base, input, settings, rng, { deterministic: false });
      const meanStd = sample.stepStds.reduce((sum, std) => sum + std, 0) / sample.stepStds.length;
      return {
        stored: obs, ...(image ? { storedImages: images } : {}), sample, chains: sample.chains, denoiseInds: new Float32Array(sample.batch * ft).fill(1),
        logProbs: sample.logProbs, values: sample.values, stds: new Float32Array(sample.batch).fill(meanStd),
      };
    }),
    values: (obs, images) => withPolicyObs(policy.options, obs, images, async (input) => {
      const values = tf.tidy(() => policy.value(policy.encode(input)));
      try {
        return (await values.data()) as Float32Array;
      } finally {
        values.dispose();
      }
    }),
  };
}
