/** Plot series for the chain view, cut from a ChainSample (DESIGN.md §3 "What is stored", §17 for a diffusion chain). */
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

/** The chain view's x axis: x = the element's index along the chain, 0..K, labelled as its family counts. */
export interface ChainAxis {
  /** Element indices that get a tick. */
  ticks: number[];
  /** A tick's text: k for a flow chain; the timestep t whose step reads that element for a diffusion chain, "a" for the action. */
  label: (index: number) => string;
  /** The hover readout's heading for an element. */
  describe: (index: number) => string;
  /** What the axis counts, for the chart's caption. */
  name: string;
}

/** At most `maxTicks` ticks, evenly spaced, always the first and the last element. */
function spacedTicks(steps: number, maxTicks: number): number[] {
  const stride = Math.max(1, Math.ceil(steps / Math.max(1, maxTicks - 1)));
  const ticks = Array.from({ length: Math.floor(steps / stride) + 1 }, (_, index) => index * stride);
  if (ticks.at(-1) !== steps) ticks.push(steps);
  // The last two may crowd each other: drop the one before the end when it is closer than half a stride.
  if (ticks.length > 2 && steps - ticks[ticks.length - 2] < stride / 2) ticks.splice(ticks.length - 2, 1);
  return ticks;
}

export function chainAxis(sample: ChainSample, maxTicks = 11): ChainAxis {
  const ticks = spacedTicks(sample.steps, maxTicks);
  if (sample.family === 'flow') return { ticks, label: (k) => String(k), describe: (k) => `k = ${k}`, name: 'x_k' };
  const { timesteps, steps } = sample;
  return {
    ticks,
    label: (index) => (index < steps ? String(timesteps[index]) : 'a'),
    describe: (index) => (index < steps ? `x_t at t = ${timesteps[index]} (step ${index + 1} of ${steps} reads it)` : 'the action (after t = 0)'),
    name: 'x_t',
  };
}

/** The elements the fine-tuned net produces, [from, to] in element indices: the input of the first fine-tuned step to the action. */
export function fineTunedSpan(sample: ChainSample): [number, number] | undefined {
  if (sample.family !== 'diffusion' || sample.ftSteps <= 0) return undefined;
  return [sample.steps - sample.ftSteps, sample.steps];
}
