import { describe, expect, it } from 'vitest';
import { SWEEP_PRESET_NAMES } from '../../core/sweep/sweep-presets';
import { parseSeeds, queueFamilyNote, variantOwnOverrides, variantTooltip } from './queue-request';

describe('parseSeeds', () => {
  it('reads a comma list of whole numbers with any spacing', () => {
    expect(parseSeeds('0')).toEqual({ seeds: [0] });
    expect(parseSeeds(' 0, 1,2 ')).toEqual({ seeds: [0, 1, 2] });
    expect(parseSeeds('7,')).toEqual({ problem: expect.stringMatching(/^Seed "" is not a whole number/) });
  });

  it('refuses empty, negative, fractional, non-numeric and repeated seeds with a sentence', () => {
    expect(parseSeeds('')).toEqual({ problem: expect.stringMatching(/^Seeds are empty/) });
    expect(parseSeeds(' , ')).toEqual({ problem: expect.stringMatching(/^Seeds are empty/) });
    expect(parseSeeds('0,-1')).toEqual({ problem: expect.stringMatching(/^Seed "-1" is not a whole number ≥ 0/) });
    expect(parseSeeds('1.5')).toEqual({ problem: expect.stringMatching(/^Seed "1.5"/) });
    expect(parseSeeds('a')).toEqual({ problem: expect.stringMatching(/^Seed "a"/) });
    expect(parseSeeds('99999999999999999999')).toEqual({ problem: expect.stringMatching(/not a whole number/) });
    expect(parseSeeds('1, 2, 1')).toEqual({ problem: 'Seed 1 is listed twice: each seed runs once per variant.' });
  });
});

describe('variant overrides', () => {
  it('lists only the keys a variant adds to the baseline', () => {
    expect(SWEEP_PRESET_NAMES).toContain('reinflow-ablation');
    expect(variantOwnOverrides('reinflow-ablation', 'baseline')).toEqual([]);
    expect(variantOwnOverrides('reinflow-ablation', 'lr:low')).toEqual(['actor_lr=1e-5', 'critic_lr=3e-5']);
    expect(variantOwnOverrides('reinflow-ablation', 'noise:constant')).toEqual(['noise.decay=constant']);
    expect(variantOwnOverrides('reinflow-ablation', 'no-such-variant')).toEqual([]);
  });

  it('puts the preset doc and the keys in the tooltip', () => {
    expect(variantTooltip('reinflow-ablation', 'ppo:clip_tight')).toBe('Tighter PPO clip (ε 0.005, half the baseline\'s, as seed 003\'s 0.1 is of its 0.2).\nppo.clip_low=0.005  ppo.clip_high=0.005');
    expect(variantTooltip('reinflow-ablation', 'baseline')).toBe("ReinFlow baseline of reference 003.\nthe sweep's baseline, unchanged");
  });
});

describe('the sweep family against the selected checkpoint', () => {
  it('the studio queues the Gaussian baseline too', () => {
    expect(SWEEP_PRESET_NAMES).toEqual(expect.arrayContaining(['reinflow-ablation', 'gaussian-baseline']));
  });

  it('fits with no checkpoint (a fresh policy) or one of the same family', () => {
    expect(queueFamilyNote('gaussian-baseline', undefined)).toBeUndefined();
    expect(queueFamilyNote('gaussian-baseline', 'gaussian')).toBeUndefined();
    expect(queueFamilyNote('reinflow-ablation', 'flow')).toBeUndefined();
  });

  it('says the runs start fresh when the checkpoint is of the other family, naming both', () => {
    expect(queueFamilyNote('gaussian-baseline', 'flow')).toBe(
      'gaussian-baseline trains a Gaussian policy: its runs start from a fresh one, not from the selected flow checkpoint.');
    expect(queueFamilyNote('reinflow-ablation', 'gaussian')).toMatch(/^reinflow-ablation trains a flow policy: .* the selected Gaussian checkpoint/);
  });
});
