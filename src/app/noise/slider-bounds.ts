/**
 * A range input's min and max for a field's allowed range (core/config fieldRange): the
 * first and last multiples of `step` inside it, so every position of the slider is a
 * value validation accepts.
 */
import type { NumericRange } from '../../core/config';

export interface SliderBounds {
  min: number;
  max: number;
  step: number;
}

/** Tolerance, in steps, for a bound that is a multiple of the step up to rounding. */
const SNAP = 1e-9;

function decimalsOf(step: number): number {
  const text = String(step);
  const exponent = text.match(/e-(\d+)$/);
  if (exponent) return Number(exponent[1]);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

/** Slider bounds inside `range`, optionally no higher than `upTo` (a display limit, such as the run's length). */
export function sliderBounds(range: NumericRange, step: number, upTo = Infinity): SliderBounds {
  const decimals = decimalsOf(step);
  const onGrid = (value: number) => Number(value.toFixed(decimals));
  let min = onGrid(Math.ceil(range.min / step - SNAP) * step);
  if (min < range.min || (range.minExclusive && min <= range.min)) min = onGrid(min + step);
  const top = Math.min(range.max, upTo);
  let max = onGrid(Math.floor(top / step + SNAP) * step);
  if (max > range.max || (range.maxExclusive && max >= range.max)) max = onGrid(max - step);
  return { min, max: Math.max(min, max), step };
}
