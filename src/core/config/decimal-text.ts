/**
 * Number text as the command line and the config accept it: decimal digits with an optional
 * sign, point and exponent. Number() alone reads '0x10' as 16, '0b11' as 3 and '1e-400' as 0;
 * each of those is refused here, with a note that says why.
 */

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export interface DecimalRead {
  /** The number, or NaN when the text is not a usable decimal number. */
  readonly value: number;
  /** Why a text that Number() would take is refused, as a clause ("which is …"); absent otherwise. */
  readonly note?: string;
}

/** Reads `text` (already trimmed) as a decimal number; see DecimalRead. */
export function readDecimal(text: string): DecimalRead {
  if (text === '') return { value: NaN };
  if (!DECIMAL.test(text)) {
    const loose = Number(text);
    // Hex, binary and octal literals: Number() takes them, a config value must not.
    return Number.isFinite(loose) ? { value: NaN, note: 'which is not written in decimal digits' } : { value: NaN };
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return { value: NaN, note: 'which is too large for a 64-bit float' };
  const mantissa = text.split(/e/i)[0];
  if (value === 0 && /[1-9]/.test(mantissa)) return { value: NaN, note: 'which is too small for a 64-bit float and would read as 0' };
  return { value };
}

/** "(got 'TEXT')", with the note when there is one: the tail of a bad-value sentence. */
export function gotText(text: string, read?: DecimalRead): string {
  return read?.note ? `(got '${text}', ${read.note})` : `(got '${text}')`;
}
