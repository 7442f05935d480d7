/**
 * Intervals of allowed numbers: the one way config code checks, narrows and words a
 * numeric field's bounds (the field table's, and those that depend on other fields).
 */

/** An interval of allowed values; an exclusive bound is itself not allowed. */
export interface NumericRange {
  readonly min: number;
  readonly max: number;
  readonly minExclusive: boolean;
  readonly maxExclusive: boolean;
  /** Whole numbers only. */
  readonly integer: boolean;
}

/** One or both sides of a bound that a rule adds; a missing side leaves the range as it is. */
export interface Bound {
  readonly min?: number;
  readonly max?: number;
  readonly minExclusive?: boolean;
  readonly maxExclusive?: boolean;
}

/** Every number (the bound a rule adds is narrowed from this). */
export const ALL_NUMBERS: NumericRange = { min: -Infinity, max: Infinity, minExclusive: false, maxExclusive: false, integer: false };

/** The part of `range` that `bound` allows: the higher minimum and the lower maximum (exclusive on a tie if either is). */
export function narrowRange(range: NumericRange, bound: Bound): NumericRange {
  let { min, max, minExclusive, maxExclusive } = range;
  if (bound.min !== undefined) {
    const exclusive = bound.minExclusive ?? false;
    if (bound.min > min) [min, minExclusive] = [bound.min, exclusive];
    else if (bound.min === min) minExclusive ||= exclusive;
  }
  if (bound.max !== undefined) {
    const exclusive = bound.maxExclusive ?? false;
    if (bound.max < max) [max, maxExclusive] = [bound.max, exclusive];
    else if (bound.max === max) maxExclusive ||= exclusive;
  }
  return { min, max, minExclusive, maxExclusive, integer: range.integer };
}

/** True when `value` is a finite number (an integer for an integer range) inside the range. */
export function inNumericRange(range: NumericRange, value: number): boolean {
  if (!Number.isFinite(value) || (range.integer && !Number.isInteger(value))) return false;
  const aboveMin = range.minExclusive ? value > range.min : value >= range.min;
  const belowMax = range.maxExclusive ? value < range.max : value <= range.max;
  return aboveMin && belowMax;
}

const shownBound = (value: number) => (value === Infinity ? '∞' : value === -Infinity ? '−∞' : String(value));

/** The interval in bracket notation, e.g. '(0, 5]' or '[1, 100]'. */
export function formatInterval(range: NumericRange): string {
  return `${range.minExclusive ? '(' : '['}${shownBound(range.min)}, ${shownBound(range.max)}${range.maxExclusive ? ')' : ']'}`;
}

/** The range in words, e.g. 'a number in (0, 5]' or 'an integer in [1, 100]'. */
export function describeRange(range: NumericRange): string {
  return `${range.integer ? 'an integer' : 'a number'} in ${formatInterval(range)}`;
}
