import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { bf16BitsToNumber, f16BitsToNumber, numberToBf16Bits, numberToF16Bits } from './half-float';

describe('F16', () => {
  it('decodes hand-computed bit patterns', () => {
    // 0x3C00: exponent 15, fraction 0 → 1.0;  0xC000: sign, exponent 16 → −2.0
    expect(f16BitsToNumber(0x3c00)).toBe(1);
    expect(f16BitsToNumber(0xc000)).toBe(-2);
    // 0x7BFF: exponent 30, fraction 1023 → (1 + 1023/1024)·2^15 = 65504, the largest half
    expect(f16BitsToNumber(0x7bff)).toBe(65504);
    // 0x3555: exponent 13, fraction 0x155 = 341 → (1 + 341/1024)·2^-2 = 0.333251953125
    expect(f16BitsToNumber(0x3555)).toBe(0.333251953125);
    // 0x0001: smallest subnormal 2^-24; 0x0400: smallest normal 2^-14
    expect(f16BitsToNumber(0x0001)).toBe(2 ** -24);
    expect(f16BitsToNumber(0x0400)).toBe(2 ** -14);
    expect(f16BitsToNumber(0x7c00)).toBe(Infinity);
    expect(f16BitsToNumber(0xfc00)).toBe(-Infinity);
    expect(f16BitsToNumber(0x7e00)).toBeNaN();
    expect(Object.is(f16BitsToNumber(0x8000), -0)).toBe(true);
  });

  it('encodes with round-to-nearest-even', () => {
    expect(numberToF16Bits(1)).toBe(0x3c00);
    expect(numberToF16Bits(-2)).toBe(0xc000);
    expect(numberToF16Bits(65504)).toBe(0x7bff);
    expect(numberToF16Bits(1 / 3)).toBe(0x3555);
    // 1 + 2^-11 lies exactly between 0x3C00 and 0x3C01: ties to even → 0x3C00.
    expect(numberToF16Bits(1 + 2 ** -11)).toBe(0x3c00);
    // 1 + 3·2^-11 lies between 0x3C01 and 0x3C02: ties to even → 0x3C02.
    expect(numberToF16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    // 65520 is halfway between 65504 and the next step (65536, out of range) → Infinity.
    expect(numberToF16Bits(65520)).toBe(0x7c00);
    // Subnormals: 2^-24 → 0x0001; 2^-25 is a tie with 0 → 0; 1.5·2^-24 ties to 2·2^-24 → 0x0002.
    expect(numberToF16Bits(2 ** -24)).toBe(0x0001);
    expect(numberToF16Bits(2 ** -25)).toBe(0x0000);
    expect(numberToF16Bits(1.5 * 2 ** -24)).toBe(0x0002);
    expect(numberToF16Bits(-Infinity)).toBe(0xfc00);
    expect(numberToF16Bits(NaN) & 0x7c00).toBe(0x7c00);
  });

  it('round-trips every finite half exactly', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      if ((bits & 0x7c00) === 0x7c00) continue;
      expect(numberToF16Bits(f16BitsToNumber(bits))).toBe(bits);
    }
  });
});

describe('BF16', () => {
  it('decodes and encodes hand-computed bit patterns', () => {
    // 0x3F80 is the top half of 1.0f (0x3F800000); 0x4049 → 0x40490000 = 3.140625
    expect(bf16BitsToNumber(0x3f80)).toBe(1);
    expect(bf16BitsToNumber(0x4049)).toBe(3.140625);
    expect(bf16BitsToNumber(0xc000)).toBe(-2);
    // 0x0001 → 0x00010000 = 2^16 · 2^-149 = 2^-133
    expect(bf16BitsToNumber(0x0001)).toBe(2 ** -133);
    expect(bf16BitsToNumber(0x7f80)).toBe(Infinity);
    expect(numberToBf16Bits(1)).toBe(0x3f80);
    // π = 0x40490FDB: dropped half 0x0FDB < 0x8000 → 0x4049.
    expect(numberToBf16Bits(Math.PI)).toBe(0x4049);
    // 1 + 2^-8 = 0x3F808000 is a tie → even 0x3F80; 1 + 3·2^-8 = 0x3F818000 → 0x3F82.
    expect(numberToBf16Bits(1 + 2 ** -8)).toBe(0x3f80);
    expect(numberToBf16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
    expect(numberToBf16Bits(NaN) & 0x7f80).toBe(0x7f80);
    expect(bf16BitsToNumber(numberToBf16Bits(NaN))).toBeNaN();
  });

  it('picks the nearer of the two neighbouring bf16 values for random float32 inputs', () => {
    const rng = createRng(2);
    const bits32 = new Uint32Array(1);
    const float32 = new Float32Array(bits32.buffer);
    for (let sample = 0; sample < 2000; sample++) {
      float32[0] = rng.normal() * 10 ** rng.int(6);
      const value = float32[0];
      // Neighbours: the truncated pattern (toward zero) and the next one away from zero.
      const truncated = bits32[0] >>> 16;
      const below = bf16BitsToNumber(truncated);
      const above = bf16BitsToNumber(truncated + 1);
      const distanceBelow = Math.abs(value - below);
      const distanceAbove = Math.abs(value - above);
      const expected = distanceBelow < distanceAbove ? truncated : distanceAbove < distanceBelow ? truncated + 1 : truncated % 2 === 0 ? truncated : truncated + 1;
      expect(numberToBf16Bits(value)).toBe(expected);
    }
  });
});
