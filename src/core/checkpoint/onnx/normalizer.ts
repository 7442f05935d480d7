import type { MinMaxNormalizer } from '../../policy/normalizer';
import type { GraphBuilder } from './graph-builder';

/** Half ranges below this are constant features (as in policy/normalizer.ts). */
const MIN_HALF_RANGE = 1e-6;

/** A min-max normalizer's float32 constants, derived from its stats as MinMaxNormalizer derives them. */
export interface NormalizerConstants {
  center: Float32Array;
  halfRange: Float32Array;
  /** 1/halfRange, or 1 for a constant feature. */
  scale: Float32Array;
}

export function normalizerConstants(normalizer: MinMaxNormalizer): NormalizerConstants {
  const { min, max } = normalizer.stats;
  const center = Float32Array.from(min, (lo, featureIndex) => (max[featureIndex] + lo) / 2);
  const halfRange = Float32Array.from(min, (lo, featureIndex) => (max[featureIndex] - lo) / 2);
  const scale = halfRange.map((half) => (half < MIN_HALF_RANGE ? 1 : 1 / half));
  return { center, halfRange, scale };
}

/** x [..., dim] in env units → (x − center)·scale in [-1, 1]: Sub, Mul, and Clip to ±clip when the normalizer clamps. */
export function normalizeNodes(g: GraphBuilder, normalizer: MinMaxNormalizer, x: string, hint: string): string {
  const { center, scale } = normalizerConstants(normalizer);
  const centred = g.op('Sub', [x, g.floatTensor(`${hint}.center`, center, [center.length])]);
  const clip = normalizer.clip;
  const scaled = g.op('Mul', [centred, g.floatTensor(`${hint}.scale`, scale, [scale.length])], {}, clip === undefined ? `${hint}_normalized` : 'mul');
  return clip === undefined ? scaled : g.op('Clip', [scaled, g.floatScalar(-clip), g.floatScalar(clip)], {}, `${hint}_normalized`);
}

/** y [..., dim] in [-1, 1] → y·halfRange + center in env units: Mul, Add. */
export function unnormalizeNodes(g: GraphBuilder, normalizer: MinMaxNormalizer, y: string, hint: string): string {
  const { center, halfRange } = normalizerConstants(normalizer);
  const scaled = g.op('Mul', [y, g.floatTensor(`${hint}.half_range`, halfRange, [halfRange.length])]);
  return g.op('Add', [scaled, g.floatTensor(`${hint}.center`, center, [center.length])], {}, `${hint}_unnormalized`);
}
