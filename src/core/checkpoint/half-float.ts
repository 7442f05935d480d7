/**
 * IEEE half (F16) and bfloat16 (BF16) conversions for checkpoint tensors
 * (DESIGN.md §6: F16 and BF16 are upcast to F32 on read). Narrowing rounds to
 * nearest, ties to even, as numpy and torch do.
 */
const scratchFloat = new Float32Array(1);
const scratchBits = new Uint32Array(scratchFloat.buffer);

/** The float32 bit pattern of `value` (after rounding it to float32). */
function float32Bits(value: number): number {
  scratchFloat[0] = value;
  return scratchBits[0];
}

/** Value of a 16-bit IEEE half: sign, 5 exponent bits (bias 15), 10 fraction bits. */
export function f16BitsToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Nearest IEEE half bit pattern, ties to even; overflow gives ±Infinity and NaN a quiet NaN. */
export function numberToF16Bits(value: number): number {
  const bits = float32Bits(value);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 31) return sign | 0x7c00;
  if (halfExponent <= 0) {
    // Subnormal half: value = m·2^-24, so m = (1.mantissa)·2^(exponent − 126) after dropping `shift` bits.
    if (halfExponent < -10) return sign;
    const full = mantissa | 0x800000;
    const shift = 14 - halfExponent;
    let half = full >>> shift;
    const rest = full & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1) === 1)) half++;
    return sign | half;
  }
  let half = sign | (halfExponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the fraction correctly bumps the exponent (up to Infinity).
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half++;
  return half;
}

/** Value of a bfloat16: the upper 16 bits of a float32. */
export function bf16BitsToNumber(bits: number): number {
  scratchBits[0] = (bits & 0xffff) << 16;
  return scratchFloat[0];
}

/** Nearest bfloat16 bit pattern, ties to even; NaN stays a quiet NaN. */
export function numberToBf16Bits(value: number): number {
  const bits = float32Bits(value);
  if ((bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0) return ((bits >>> 16) | 0x40) & 0xffff;
  const rounding = 0x7fff + ((bits >>> 16) & 1);
  return ((bits + rounding) >>> 16) & 0xffff;
}
