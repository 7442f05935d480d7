/** The exploration panel's preview of each step's std is the sampler's own, for DDPM and DDIM chains. */
import { describe, expect, it } from 'vitest';
import { chainCoefficients } from './diffusion-step';
import { samplingStd } from './diffusion-sampler';
import { stepStdPreview } from './step-std-preview';

describe('stepStdPreview', () => {
  it('gives the sampler\'s stochastic stds, floored as rollouts floor them, for DDPM and DDIM grids', () => {
    for (const [steps, ddimSteps] of [[20, 0], [6, 0], [20, 5], [10, 10], [7, 1]]) {
      const floor = Math.random() * 0.3;
      const preview = stepStdPreview(steps, ddimSteps, floor);
      const coefficients = chainCoefficients({ steps, ddimSteps }, { velocityNet: 'mlp' });
      expect(preview.timesteps).toEqual(coefficients.t);
      expect(preview.own).toHaveLength(ddimSteps > 0 ? ddimSteps : steps);
      for (const [index, std] of coefficients.std.entries()) {
        expect(preview.own[index]).toBeCloseTo(std, 12);
        const settings = { steps, ddimSteps, denoisedClip: 1, ftSteps: 1, minSamplingStd: floor, minLogprobStd: 0.1, randnClip: 3 };
        expect(preview.applied[index]).toBeCloseTo(samplingStd(std, settings, false), 12);
      }
    }
  });

  it('DDPM\'s own std falls toward t = 0, where the floor takes over (DPPO Gym: T = 20, floor 0.1)', () => {
    const { own, applied, timesteps } = stepStdPreview(20, 0, 0.1);
    expect(timesteps[0]).toBe(19);
    expect(timesteps.at(-1)).toBe(0);
    for (let index = 1; index < own.length; index++) expect(own[index]).toBeLessThanOrEqual(own[index - 1]);
    // β̃_0 = 0: its log is floored at 1e−20, so the own std is 1e−10 and the floor applies.
    expect(own.at(-1)).toBeCloseTo(1e-10, 15);
    expect(applied.at(-1)).toBe(0.1);
    expect(applied[0]).toBe(own[0]);
  });
});
