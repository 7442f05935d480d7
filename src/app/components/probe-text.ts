import type { ProbeSampleResult } from '../../protocol/trainer-api';

/** The start-up check of the tfjs backend in one sentence: what was sampled, and whether it came out usable. */
export function probeSummary(probe: Pick<ProbeSampleResult, 'shape' | 'allFinite' | 'backend'>): string {
  const [chunks, steps, actions] = probe.shape;
  const sampled = `${chunks} action chunks of ${steps} steps × ${actions} values`;
  return probe.allFinite
    ? `${probe.backend} works: a small test policy sampled ${sampled}, all finite.`
    : `${probe.backend} is not usable: a small test policy sampled ${sampled} with NaN or infinite values; reload with another ?backend= (webgpu, wasm or cpu).`;
}
