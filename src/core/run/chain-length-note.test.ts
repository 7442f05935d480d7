import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig } from '../config';
import type { FamilyCheckpoint } from './family-checkpoint';
import { chainLengthNote } from './chain-length-note';

/** The fields chainLengthNote reads of a decoded checkpoint: its family, its stored K, and whether it holds run progress. */
function checkpointAt(kind: 'flow' | 'diffusion' | 'gaussian', denoiseSteps: number, resumed = false): FamilyCheckpoint {
  return { kind, metadata: { architecture: { denoise_steps: denoiseSteps } }, ...(resumed ? { progress: {} } : {}) } as unknown as FamilyCheckpoint;
}

const runAt = (k: number) => applyOverrides(defaultConfig(), ['task=pick-cube', `policy.denoise_steps=${k}`]);

describe('chainLengthNote', () => {
  it('names the run\'s K and the checkpoint\'s, and how to keep the one it learned', () => {
    expect(chainLengthNote(runAt(8), checkpointAt('flow', 4))).toBe(
      'policy.denoise_steps=8 samples a checkpoint trained and evaluated at policy.denoise_steps=4, '
      + 'so the run starts from another policy than the one measured; add policy.denoise_steps=4 to fine-tune the chain it learned');
  });

  it('says nothing at the checkpoint\'s own K, for a fresh policy, a resumed run, or a diffusion or Gaussian checkpoint', () => {
    expect(chainLengthNote(runAt(4), checkpointAt('flow', 4))).toBeUndefined();
    expect(chainLengthNote(runAt(8), undefined)).toBeUndefined();
    // A resumed run's checkpoint is its own, written at the K it runs at; an override there is the user's deliberate change.
    expect(chainLengthNote(runAt(8), checkpointAt('flow', 4, true))).toBeUndefined();
    // A diffusion net's T is a shape key, refused as a conflict before a run opens.
    expect(chainLengthNote(runAt(8), checkpointAt('diffusion', 20))).toBeUndefined();
    expect(chainLengthNote(runAt(8), checkpointAt('gaussian', 4))).toBeUndefined();
  });
});
