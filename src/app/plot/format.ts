/** Number text for plots: values in readouts and headers, shorter text on axes, counts with separators. */

function formatSignificant(value: number, digits: number, exponentDigits: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e5 || magnitude < 1e-3)) return value.toExponential(exponentDigits);
  return Number(value.toPrecision(digits)).toString();
}

/** Four significant digits, exponent form outside [1e-3, 1e5). */
export function formatValue(value: number): string {
  return formatSignificant(value, 4, 2);
}

const SUFFIXES: readonly [number, string][] = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];

/**
 * Three significant digits; from 10,000 up a k/M/G suffix ("250k", "1.5M") instead of an exponent,
 * which is longer and reads worse on an env-steps axis; exponent form below 1e-3.
 */
export function formatTick(value: number): string {
  const magnitude = Math.abs(value);
  if (Number.isFinite(value) && magnitude >= 1e4) {
    const [scale, suffix] = SUFFIXES.find(([size]) => magnitude >= size)!;
    return `${Number((value / scale).toPrecision(3))}${suffix}`;
  }
  return formatSignificant(value, 3, 1);
}

/** A count with thousands separators: 252690 → "252,690". */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
