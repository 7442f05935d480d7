/** Mean, sample standard deviation and range of a few values (seeds of one setting). */
export interface Spread {
  mean: number;
  /** Sample standard deviation (n − 1); 0 for one value. */
  std: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new RangeError('spread of no values');
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const squares = values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  return { mean, std: values.length > 1 ? Math.sqrt(squares / (values.length - 1)) : 0, min: Math.min(...values), max: Math.max(...values) };
}
