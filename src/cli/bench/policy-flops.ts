import { expectedParameterShapes } from '../../core/policy/param-shapes';
import { obsTokenCount, type FlowPolicyOptions } from '../../core/policy/options';

/** Multiply-adds of one row through the dense layers whose names start with `prefix`. */
export function denseMacs(options: FlowPolicyOptions, prefix: string, skip: (name: string) => boolean = () => false): number {
  let macs = 0;
  for (const [name, shape] of expectedParameterShapes(options)) {
    if (name.startsWith(prefix) && name.endsWith('.kernel') && !skip(name)) macs += shape[0] * shape[1];
  }
  return macs;
}

/** Multiply-adds of one observation through the encoder (PointNet runs its per-point MLP on every point of every frame). */
export function encoderMacs(options: FlowPolicyOptions): number {
  if (options.obsEncoder === 'state') return obsTokenCount(options) === 1 ? denseMacs(options, 'encoder.') : options.nObsSteps * denseMacs(options, 'encoder.');
  return options.nObsSteps * (options.numPoints * denseMacs(options, 'encoder.points.') + denseMacs(options, 'encoder.project'));
}

/**
 * Multiply-adds of one velocity call for one sample. MLP: every kernel once. DiT-X: per-sample
 * layers (conditioning, modulations) once, token layers once per action token (H) or observation
 * token (T), plus the attention products q·kᵀ and P·v (2·H·H·D self, 2·H·T·D cross).
 */
export function velocityMacs(options: FlowPolicyOptions): number {
  if (options.velocityNet === 'mlp') return denseMacs(options, 'velocity.');
  const perSample = (name: string) => name.includes('.cond.') || name.includes('modulation');
  const perObsToken = (name: string) => name.includes('obs_input') || name.includes('cross_attn.kv');
  const tokens = options.horizon;
  const obsTokens = obsTokenCount(options);
  const width = options.ditxDim;
  let macs = 0;
  for (const [name, shape] of expectedParameterShapes(options)) {
    if (!name.startsWith('velocity.') || !name.endsWith('.kernel')) continue;
    const rows = perSample(name) ? 1 : perObsToken(name) ? obsTokens : tokens;
    macs += rows * shape[0] * shape[1];
  }
  return macs + options.ditxDepth * (2 * tokens * tokens * width + 2 * tokens * obsTokens * width);
}
