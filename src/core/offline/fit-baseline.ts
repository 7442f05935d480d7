import { ConfigError, ShapeError } from '../errors';
import { RowTable } from '../rl/row-table';
import { ValueCritic, type CriticOptions } from './value-critic';

/** How well the baseline predicts the returns (held out when cross-fitted). */
export interface CriticFit {
  /** Mean squared error of V against the returns, in return units. */
  mse: number;
  /** 1 − Var(G − V) / Var(G). */
  explainedVariance: number;
}

/**
 * The baseline V(s_i) of every sample for A = G − V. With `folds` > 1 the episodes are dealt
 * round-robin into folds and each fold's values come from a critic fit on the other folds
 * (cross-fitting): a critic that has seen a sample's own return would partly memorize it and
 * shrink that sample's advantage toward 0. The fit figures are then on held-out samples.
 * features [S, D], returns [S], episodeOf [S] (episode index of each sample) → values [S].
 */
export async function fitBaseline(
  features: Float32Array,
  returns: Float32Array,
  episodeOf: Int32Array,
  folds: number,
  options: CriticOptions,
): Promise<{ values: Float32Array; fit: CriticFit }> {
  const size = returns.length;
  if (episodeOf.length !== size) throw new ShapeError('episodeOf', `episodeOf has ${episodeOf.length} entries; expected one per sample (${size})`);
  if (!Number.isInteger(folds) || folds < 1) throw new ConfigError('critic_folds', `critic_folds must be a positive integer, got ${folds}`);
  const inputDim = features.length / size;
  const samples = new RowTable(size, { features: { values: features, rowShape: [inputDim] }, returns: { values: returns, rowShape: [] } });
  const episodes = episodeOf.reduce((most, episode) => Math.max(most, episode + 1), 0);
  const foldCount = Math.min(folds, episodes);
  const values = new Float32Array(size);
  for (let fold = 0; fold < foldCount; fold++) {
    const heldOut = (sampleIndex: number) => foldCount > 1 && episodeOf[sampleIndex] % foldCount === fold;
    const trainRows: number[] = [];
    const testRows: number[] = [];
    for (let sampleIndex = 0; sampleIndex < size; sampleIndex++) (heldOut(sampleIndex) ? testRows : trainRows).push(sampleIndex);
    const predictRows = foldCount > 1 ? testRows : trainRows;
    const critic = new ValueCritic(inputDim, { ...options, seed: options.seed + fold });
    try {
      const train = samples.gather(trainRows);
      critic.fit(train.features, train.returns);
      const predicted = await critic.predict(samples.gather(predictRows).features);
      predictRows.forEach((row, index) => { values[row] = predicted[index]; });
    } finally {
      critic.dispose();
    }
  }
  return { values, fit: fitOf(returns, values) };
}

/** MSE of values against returns and 1 − Var(G − V)/Var(G). */
export function fitOf(returns: ArrayLike<number>, values: ArrayLike<number>): CriticFit {
  const size = returns.length;
  let mean = 0;
  for (let index = 0; index < size; index++) mean += returns[index] / size;
  let residualMean = 0;
  for (let index = 0; index < size; index++) residualMean += (returns[index] - values[index]) / size;
  let squared = 0;
  let residualVariance = 0;
  let returnVariance = 0;
  for (let index = 0; index < size; index++) {
    const residual = returns[index] - values[index];
    squared += residual * residual / size;
    residualVariance += (residual - residualMean) ** 2 / size;
    returnVariance += (returns[index] - mean) ** 2 / size;
  }
  return { mse: squared, explainedVariance: returnVariance > 0 ? 1 - residualVariance / returnVariance : NaN };
}
