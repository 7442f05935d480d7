import { ConfigError } from '../../errors';
import { checkLength, isValid, type FlatArray } from './rollout-layout';

/**
 * Normalizes advantages to zero mean and unit std over the valid (mask ≠ 0)
 * entries only (DESIGN.md §4): (A − mean) / (std + eps), with the population
 * std. Masked entries come out 0 and never enter the statistics.
 * `advantages` and `mask` share any flat layout, e.g. [T, N]; returns the same layout.
 */
export function normalizeAdvantages(advantages: FlatArray, mask?: FlatArray, eps = 1e-8): Float32Array {
  if (mask !== undefined) checkLength('mask', mask, advantages.length, 'advantages.length');
  if (!(eps > 0)) throw new ConfigError('eps', `eps must be positive, got ${eps}`);
  let count = 0;
  let sum = 0;
  for (let flatIndex = 0; flatIndex < advantages.length; flatIndex++) {
    if (!isValid(mask, flatIndex)) continue;
    count++;
    sum += advantages[flatIndex];
  }
  const out = new Float32Array(advantages.length);
  if (count === 0) return out;
  const mean = sum / count;
  let squares = 0;
  for (let flatIndex = 0; flatIndex < advantages.length; flatIndex++) {
    if (isValid(mask, flatIndex)) squares += (advantages[flatIndex] - mean) ** 2;
  }
  const std = Math.sqrt(squares / count);
  for (let flatIndex = 0; flatIndex < advantages.length; flatIndex++) {
    if (isValid(mask, flatIndex)) out[flatIndex] = (advantages[flatIndex] - mean) / (std + eps);
  }
  return out;
}
