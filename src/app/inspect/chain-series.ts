/** Plot series for the chain view, cut from a ChainSample (DESIGN.md §3 "What is stored"). */
import type { ChainSample } from '../../protocol/trainer-api';

/** x_k for k = 0..K of each chain (`chains[m]`) and of the ODE chain, at one position and dim. */
export interface ChainValues {
  ode: number[];
  chains: number[][];
}

/** The Gaussian of a stochastic step, drawn at k + 1 where its sample x_{k+1} lands. */
export interface BandPoint {
  k: number;
  chainIndex: number;
  mean: number;
  /** [lower, upper] distance from the mean: the std twice. */
  error: [number, number];
}

/** Offset of x_k[position, dim] of chain m in [M, K+1, H, A]. */
function chainOffset(sample: ChainSample, chainIndex: number, stepIndex: number, position: number, dim: number): number {
  return ((chainIndex * (sample.steps + 1) + stepIndex) * sample.horizon + position) * sample.actionDim + dim;
}

/** The K + 1 values x_k of every chain and of the ODE chain for one horizon position and action dim. */
export function chainValues(sample: ChainSample, position: number, dim: number): ChainValues {
  const steps = Array.from({ length: sample.steps + 1 }, (_, stepIndex) => stepIndex);
  return {
    ode: steps.map((stepIndex) => sample.odeChain[(stepIndex * sample.horizon + position) * sample.actionDim + dim]),
    chains: Array.from({ length: sample.count }, (_, chainIndex) => steps.map((stepIndex) => sample.chains[chainOffset(sample, chainIndex, stepIndex, position, dim)])),
  };
}

/** μ_k ± std_k of every stochastic step of every chain, for one position and dim. */
export function bandPoints(sample: ChainSample, position: number, dim: number): BandPoint[] {
  const points: BandPoint[] = [];
  for (let chainIndex = 0; chainIndex < sample.count; chainIndex++) {
    for (let stepIndex = 0; stepIndex < sample.steps; stepIndex++) {
      if (sample.denoiseInds[chainIndex * sample.steps + stepIndex] !== 1) continue;
      const offset = ((chainIndex * sample.steps + stepIndex) * sample.horizon + position) * sample.actionDim + dim;
      const std = sample.stds[offset];
      points.push({ k: stepIndex + 1, chainIndex, mean: sample.means[offset], error: [std, std] });
    }
  }
  return points;
}

/** Position selector entries: the first n_action_steps positions run in the env, the rest are planned. */
export function positionLabels(horizon: number, nActionSteps: number): { position: number; label: string; executed: boolean }[] {
  return Array.from({ length: horizon }, (_, position) => {
    const executed = position < nActionSteps;
    return { position, executed, label: `${position} · ${executed ? 'executed' : 'planned'}` };
  });
}

/** Mean over the H·A elements of the population std across the M chains of x_K. */
export function finalSpread(sample: ChainSample): number {
  const elementSize = sample.horizon * sample.actionDim;
  let total = 0;
  for (let element = 0; element < elementSize; element++) {
    let sum = 0;
    let sumSquares = 0;
    for (let chainIndex = 0; chainIndex < sample.count; chainIndex++) {
      const value = sample.chains[(chainIndex * (sample.steps + 1) + sample.steps) * elementSize + element];
      sum += value;
      sumSquares += value * value;
    }
    const mean = sum / sample.count;
    total += Math.sqrt(Math.max(0, sumSquares / sample.count - mean * mean));
  }
  return total / elementSize;
}
