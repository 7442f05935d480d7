import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { TORCH_ACTIVATIONS, torchActivation, torchMlp, torchMlpShapes, type TorchActivation, type TorchMlpLayout } from './torch-mlp';
import { reflowFrequencies } from './velocity-reflow';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** float64 references of torch's activations. */
const softplus = (x: number) => (x > 20 ? x : Math.log1p(Math.exp(x)));
const REFERENCE: Record<TorchActivation, (x: number) => number> = {
  ReLU: (x) => Math.max(0, x),
  ELU: (x) => (x > 0 ? x : Math.expm1(x)),
  // GELU(x) = x·Φ(x); Φ(1) = 0.8413447460685429, so GELU(1) = 0.8413447…, GELU(−2) = −2·0.0227501319 = −0.0455002638.
  GELU: (x) => ({ 1: 0.8413447460685429, [-2]: -0.04550026389635842, 0.5: 0.34573123063700656, 25: 25 } as Record<number, number>)[x],
  Tanh: Math.tanh,
  // Mish(1) = tanh(ln(1 + e)) = tanh(1.3132616875) = 0.8650983882673103.
  Mish: (x) => x * Math.tanh(softplus(x)),
  Identity: (x) => x,
  Softplus: softplus,
  SiLU: (x) => x / (1 + Math.exp(-x)),
};

describe("the peers' MLP building blocks (model/common/mlp.py)", () => {
  it('each activation matches its float64 formula at 1, −2, 0.5 and 25 (softplus passes x through above 20)', async () => {
    const inputs = [1, -2, 0.5, 25];
    for (const activation of TORCH_ACTIVATIONS) {
      const out = torchActivation(activation, tf.tensor1d(inputs));
      const values = await out.data();
      out.dispose();
      inputs.forEach((x, index) => expect(values[index], `${activation}(${x})`).toBeCloseTo(REFERENCE[activation](x), 5));
    }
  });

  it('a residual layout is input Linear, pre-activation blocks x + l2(act(l1(act(x)))), output Linear (by hand in float64)', async () => {
    const layout: TorchMlpLayout = { dims: [2, 2, 2, 2, 1], activation: 'ReLU', residual: true, layerNorm: false };
    expect(torchMlpShapes('m', layout).map(([name]) => name)).toEqual([
      'm.input.kernel', 'm.input.bias', 'm.blocks.0.l1.kernel', 'm.blocks.0.l1.bias', 'm.blocks.0.l2.kernel', 'm.blocks.0.l2.bias', 'm.output.kernel', 'm.output.bias',
    ]);
    // Kernels [in, out]. x = [1, −1]:
    // input: I·x + [0, 0.5] = [1, −0.5] (no activation after it)
    // l1: relu([1, −0.5]) = [1, 0] → [[2, 0], [0, 1]]ᵀ… kernel diag(2, 1) → [2, 0], + bias [−1, 0] = [1, 0]
    // l2: relu([1, 0]) = [1, 0] → kernel [[1, 1], [0, 0]] → [1, 1], + bias 0 → [1, 1]; residual: [1, −0.5] + [1, 1] = [2, 0.5]
    // output: [2, 0.5]·[3, −2] + 0.25 = 6 − 1 + 0.25 = 5.25
    const params: Record<string, tf.Tensor> = {
      'm.input.kernel': tf.tensor2d([[1, 0], [0, 1]]), 'm.input.bias': tf.tensor1d([0, 0.5]),
      'm.blocks.0.l1.kernel': tf.tensor2d([[2, 0], [0, 1]]), 'm.blocks.0.l1.bias': tf.tensor1d([-1, 0]),
      'm.blocks.0.l2.kernel': tf.tensor2d([[1, 1], [0, 0]]), 'm.blocks.0.l2.bias': tf.tensor1d([0, 0]),
      'm.output.kernel': tf.tensor2d([[3], [-2]]), 'm.output.bias': tf.tensor1d([0.25]),
    };
    const { output, hidden } = torchMlp((name) => params[name], 'm', layout, tf.tensor2d([[1, -1]]));
    expect(Array.from(await output.data())).toEqual([5.25]);
    expect(Array.from(await hidden.data())).toEqual([2, 0.5]);
  });

  it('a plain layout applies the activation after every hidden Linear and none after the output', async () => {
    const layout: TorchMlpLayout = { dims: [1, 2, 1], activation: 'Tanh', residual: false, layerNorm: false };
    expect(torchMlpShapes('p', layout).map(([name, shape]) => `${name}:${shape.join('x')}`)).toEqual(['p.layers.0.kernel:1x2', 'p.layers.0.bias:2', 'p.output.kernel:2x1', 'p.output.bias:1']);
    // h = tanh([0.5·2, 0.5·(−4)]) = [tanh 1, tanh −2] = [0.7615941559557649, −0.9640275800758169]; out = h·[1, 1] + 0 = −0.202433424120052
    const params: Record<string, tf.Tensor> = {
      'p.layers.0.kernel': tf.tensor2d([[2, -4]]), 'p.layers.0.bias': tf.tensor1d([0, 0]), 'p.output.kernel': tf.tensor2d([[1], [1]]), 'p.output.bias': tf.tensor1d([0]),
    };
    const { output } = torchMlp((name) => params[name], 'p', layout, tf.tensor2d([[0.5]]));
    expect((await output.data())[0]).toBeCloseTo(-0.202433424120052, 6);
  });

  it("SinusoidalPosEmb's frequencies are exp(−ln(10000)·j/(half − 1)): 1, 0.01 and 0.0001 for dim 6", () => {
    const [first, second, third] = reflowFrequencies(6);
    expect(first).toBe(1);
    expect(second).toBeCloseTo(0.01, 15);
    expect(third).toBeCloseTo(0.0001, 15);
  });
});
