import type { WeightEntry } from '../../policy/flow-policy';
import type { FlowPolicyOptions, ReflowLayout } from '../../policy/options';
import { reflowEncoderLayout } from '../../policy/reflow-heads';
import { reflowFrequencies, reflowVelocityLayout } from '../../policy/velocity-reflow';
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { torchMlpNodes } from './torch-mlp';

/** x·kernel + bias for one row, in float64 (kernel [in, out] row-major). */
function denseRow(x: ArrayLike<number>, weights: ReadonlyMap<string, WeightEntry>, prefix: string): number[] {
  const kernel = weights.get(`${prefix}.kernel`) as WeightEntry;
  const bias = weights.get(`${prefix}.bias`) as WeightEntry;
  const [inputs, outputs] = kernel.shape;
  return Array.from({ length: outputs }, (_, out) => {
    let total = bias.data[out];
    for (let input = 0; input < inputs; input++) total += x[input] * kernel.data[input * outputs + out];
    return total;
  });
}

const mish = (x: number) => x * Math.tanh(x > 20 ? x : Math.log1p(Math.exp(x)));

/**
 * FlowMLP's time embedding of one step (policy/velocity-reflow.ts `reflowTimeEmbedding`) as the constant it is once the
 * weights are fixed: every chain of a batch shares the step's time. Computed in float64 from the float32 weights. It
 * embeds s = 1 − t, or, for DPPO's DiffusionMLP (prediction epsilon), the integer denoising step t as it is.
 */
export function reflowTimeEmbeddingValues(weights: ReadonlyMap<string, WeightEntry>, options: FlowPolicyOptions, t: number, stepSize: number): Float32Array {
  const sinusoidOf = (value: number) => {
    const angles = reflowFrequencies(options.timeEmbedDim).map((frequency) => Math.fround(value) * Math.fround(frequency));
    return [...angles.map(Math.sin), ...angles.map(Math.cos)];
  };
  const time = sinusoidOf(options.prediction === 'epsilon' ? t : 1 - Math.fround(t));
  const sinusoid = options.shortcut ? [...time, ...sinusoidOf(stepSize)] : time;
  return Float32Array.from(denseRow(denseRow(sinusoid, weights, 'velocity.time.0').map(mish), weights, 'velocity.time.1'));
}

/** FlowMLP's cond_mlp over the flattened history [B, 1, nObs·obsDim] (identity without one). */
export function reflowObsNodes(g: GraphBuilder, param: GraphParam, options: FlowPolicyOptions, history: string): string {
  const layout = reflowEncoderLayout(options);
  return layout ? torchMlpNodes(g, param, 'encoder', layout, history) : history;
}

/**
 * Our velocity for one step: −head(Concat[x_t [B, H·A], condition]), the condition being [emb | features] (FlowMLP,
 * ShortCut's concate) or emb + features, emb · features (ShortCut's add, multiply). For DPPO's DiffusionMLP (prediction
 * epsilon) the head's output is ε as it is, not negated.
 */
export function velocityReflowNodes(g: GraphBuilder, param: GraphParam, options: FlowPolicyOptions, xFlat: string, timeEmbedding: string, features: string, featureDim: number): string {
  const combination = options.shortcut ? (options.reflow as ReflowLayout).combination : 'concate';
  const condition = combination === 'add' ? g.op('Add', [timeEmbedding, features], {}, 'condition')
    : combination === 'multiply' ? g.op('Mul', [timeEmbedding, features], {}, 'condition')
      : g.op('Concat', [timeEmbedding, features], { axis: { int: 1 } }, 'condition');
  const input = g.op('Concat', [xFlat, condition], { axis: { int: 1 } }, 'velocity_input');
  const output = torchMlpNodes(g, param, 'velocity.mlp', reflowVelocityLayout(options, featureDim), input);
  return options.prediction === 'epsilon' ? output : g.op('Neg', [output], {}, 'velocity');
}
