/** Number text for plots: values in readouts and headers, shorter text on axes. */

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

/** Three significant digits, exponent form outside [1e-3, 1e5). */
export function formatTick(value: number): string {
  return formatSignificant(value, 3, 1);
}
