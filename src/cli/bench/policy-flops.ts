import { expectedParameterShapes } from '../../core/policy/param-shapes';
import { obsTokenCount, type FlowPolicyOptions } from '../../core/policy/options';
import { unet1dShapes } from '../../core/policy/unet1d-shapes';

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
 * Multiply-adds of one UNet1D call for one sample: each kernel [taps, in, out] (a dense kernel is one tap) once per
 * position it produces at its level, H/2^level (a strided conv produces the next level's positions; a transposed conv
 * is counted per input position, 4 taps each, not the zero blocks its one-matmul form multiplies); the t and d MLPs
 * and the FiLM layers once. GroupNorm, Mish and the adds are not matmuls and are left out, as for the other nets.
 */
export function unet1dMacs(options: FlowPolicyOptions): number {
  const levels = options.unetDims.length;
  const positionsAt = (level: number) => options.horizon / 2 ** level;
  let macs = 0;
  for (const [name, shape] of unet1dShapes(options)) {
    if (!name.endsWith('.kernel')) continue;
    const down = /^velocity\.down\.(\d+)\./.exec(name);
    const up = /^velocity\.up\.(\d+)\./.exec(name);
    let rows = options.horizon;
    if (name.startsWith('velocity.time.') || name.startsWith('velocity.step.') || name.endsWith('.film.kernel')) rows = 1;
    else if (down) rows = positionsAt(Number(down[1]) + (name.includes('.downsample.') ? 1 : 0));
    else if (name.startsWith('velocity.mid.')) rows = positionsAt(levels - 1);
    else if (up) rows = positionsAt(levels - 1 - Number(up[1]));
    macs += rows * shape.reduce((product, size) => product * size, 1);
  }
  return macs;
}

/**
 * Multiply-adds of one velocity call for one sample. MLP: every kernel once. DiT-X: per-sample
 * layers (conditioning, modulations) once, token layers once per action token (H) or observation
 * token (T), plus the attention products q·kᵀ and P·v (2·H·H·D self, 2·H·T·D cross).
 */
export function velocityMacs(options: FlowPolicyOptions): number {
  if (options.velocityNet === 'mlp') return denseMacs(options, 'velocity.');
  if (options.velocityNet === 'unet1d') return unet1dMacs(options);
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
