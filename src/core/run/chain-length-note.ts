/**
 * Why a fine-tune may not start from the policy that was measured: it samples a flow checkpoint with
 * another K than the one it was trained and evaluated at. Not an error (a flow net integrates with any
 * K), but a BC's skill is measured at its own K: the K = 4 pick-cube BC that succeeds in about half
 * its episodes succeeds in 11 of 30 when sampled at K = 8.
 */
import type { RunConfig } from '../config/run-config';
import type { FamilyCheckpoint } from './family-checkpoint';

/** The sentence for a fresh run (not a resume) of a flow checkpoint at another K, or undefined. */
export function chainLengthNote(config: RunConfig, checkpoint: FamilyCheckpoint | undefined): string | undefined {
  // A resumed run carries on at the K it was saved with; a diffusion checkpoint's T is fixed (a config conflict).
  if (checkpoint === undefined || checkpoint.kind !== 'flow' || checkpoint.progress !== undefined) return undefined;
  const trained = checkpoint.metadata.architecture.denoise_steps;
  const sampled = config.policy.denoise_steps;
  if (typeof trained !== 'number' || trained === sampled) return undefined;
  return `policy.denoise_steps=${sampled} samples a checkpoint trained and evaluated at policy.denoise_steps=${trained}, `
    + `so the run starts from another policy than the one measured; add policy.denoise_steps=${trained} to fine-tune the chain it learned`;
}
