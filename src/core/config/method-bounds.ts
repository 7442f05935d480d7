/**
 * What each denoising method needs of the config (DESIGN.md §3 "Step"): the noise level a
 * it takes and the fewest denoising steps it can sample with. These are the one rule:
 * config validation, the studio's sliders and the sampler's own precondition checks all
 * read them here.
 */
import type { Bound } from './numeric-range';
import type { NoiseMethod } from './run-config';

/**
 * The bound on a for `method`, or undefined when the method does not use a:
 * - sde: σ_i = a·sqrt(t_i/(1−t_i)) is the step's noise, so a > 0.
 * - cps: a sets the angle πa/2 between the mean and the noise, so 0 < a ≤ 1.
 * - ode, noise: a is unused (noise takes its std from the noise head).
 */
export function methodLevelBound(method: NoiseMethod): Bound | undefined {
  if (method === 'sde') return { min: 0, minExclusive: true };
  if (method === 'cps') return { min: 0, minExclusive: true, max: 1 };
  return undefined;
}

/** Why `method` bounds a, as a clause after "where" (empty for methods that ignore a). */
export function methodLevelReason(method: NoiseMethod): string {
  if (method === 'sde') return 'σ_i = a·sqrt(t_i/(1−t_i)) is the noise of each step, which a = 0 would turn off';
  if (method === 'cps') return 'it sets the angle πa/2 of each step, which must be in (0, π/2]';
  return '';
}

/** The fewest denoising steps K a training chain of `method` needs: cps's last step has std 0, so it needs another to be stochastic. */
export function methodMinDenoiseSteps(method: NoiseMethod): number {
  return method === 'cps' ? 2 : 1;
}
