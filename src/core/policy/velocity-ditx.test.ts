import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { modulate, plainLayerNorm } from './adaln';
import { scaledDotProductAttention, twoTokenAttention } from './attention';
import { FlowPolicy, type WeightEntry } from './flow-policy';
import { ditxBlock } from './velocity-ditx';

// D = 4 with 2 heads of 2, H = 3 action tokens, T = 2 observation tokens.
const tinyDitx = {
  obsDim: 3, horizon: 3, actionDim: 2, nObsSteps: 2, velocityNet: 'ditx' as const, ditxDim: 4, ditxDepth: 1, ditxHeads: 2,
  encoderHidden: [5], valueHidden: [3], noiseHidden: [4], timeEmbedDim: 4,
};
const owned: FlowPolicy[] = [];
afterEach(() => owned.splice(0).forEach((policy) => policy.dispose()));
beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** A DiT-X policy whose weights are all random (modulations included), so no gate hides a path. */
async function randomizedPolicy(seed: number): Promise<{ policy: FlowPolicy; weights: Map<string, WeightEntry> }> {
  const policy = new FlowPolicy(tinyDitx, seed);
  owned.push(policy);
  const rng = createRng(seed + 100);
  const weights = await policy.getWeights();
  for (const entry of weights.values()) entry.data = rng.fillNormal(new Float32Array(entry.data.length)).map((value) => 0.5 * value);
  policy.setWeights(weights);
  return { policy, weights };
}

// ---- float64 references, one row (token) at a time ----
type Matrix = number[][];
const silu = (x: number) => x / (1 + Math.exp(-x));
function denseRow(weights: Map<string, WeightEntry>, prefix: string, input: number[]): number[] {
  const kernel = weights.get(`${prefix}.kernel`)!;
  const bias = weights.get(`${prefix}.bias`)!;
  const outSize = kernel.shape[1];
  return Array.from({ length: outSize }, (_, column) => input.reduce((sum, value, row) => sum + value * kernel.data[row * outSize + column], bias.data[column]));
}
function layerNormRow(row: number[]): number[] {
  const mean = row.reduce((sum, value) => sum + value, 0) / row.length;
  const variance = row.reduce((sum, value) => sum + (value - mean) ** 2, 0) / row.length;
  return row.map((value) => (value - mean) / Math.sqrt(variance + 1e-6));
}
function attentionRef(q: Matrix, k: Matrix, v: Matrix): Matrix {
  const scale = 1 / Math.sqrt(q[0].length);
  return q.map((queryRow) => {
    const scores = k.map((keyRow) => keyRow.reduce((sum, value, index) => sum + value * queryRow[index], 0) * scale);
    const top = Math.max(...scores);
    const exps = scores.map((score) => Math.exp(score - top));
    const total = exps.reduce((sum, value) => sum + value, 0);
    return v[0].map((_, column) => exps.reduce((sum, weight, row) => sum + (weight / total) * v[row][column], 0));
  });
}
/** Multi-head attention on token rows: split D into heads, attend per head, concatenate. */
function multiHeadRef(q: Matrix, k: Matrix, v: Matrix, heads: number): Matrix {
  const perHead = q[0].length / heads;
  const pick = (rows: Matrix, head: number) => rows.map((row) => row.slice(head * perHead, (head + 1) * perHead));
  const outs = Array.from({ length: heads }, (_, head) => attentionRef(pick(q, head), pick(k, head), pick(v, head)));
  return q.map((_, row) => outs.flatMap((out) => out[row]));
}
function blockRef(weights: Map<string, WeightEntry>, h: Matrix, obs: Matrix, c: number[], heads: number): Matrix {
  const prefix = 'velocity.blocks.0';
  const width = c.length;
  const mod = denseRow(weights, `${prefix}.modulation`, c.map(silu));
  const part = (index: number) => mod.slice(index * width, (index + 1) * width);
  const modulateRows = (rows: Matrix, shift: number[], scale: number[]) => rows.map((row) => layerNormRow(row).map((value, unit) => value * (1 + scale[unit]) + shift[unit]));
  const gated = (rows: Matrix, add: Matrix, gate: number[]) => rows.map((row, index) => row.map((value, unit) => value + gate[unit] * add[index][unit]));
  // Self-attention.
  const a = modulateRows(h, part(0), part(1));
  const qkv = a.map((row) => denseRow(weights, `${prefix}.self_attn.qkv`, row));
  const self = multiHeadRef(qkv.map((row) => row.slice(0, width)), qkv.map((row) => row.slice(width, 2 * width)), qkv.map((row) => row.slice(2 * width)), heads)
    .map((row) => denseRow(weights, `${prefix}.self_attn.out`, row));
  let out = gated(h, self, part(2));
  // Cross-attention to the observation tokens.
  const b = modulateRows(out, part(3), part(4));
  const q = b.map((row) => denseRow(weights, `${prefix}.cross_attn.q`, row));
  const kv = obs.map((row) => denseRow(weights, `${prefix}.cross_attn.kv`, row));
  const cross = multiHeadRef(q, kv.map((row) => row.slice(0, width)), kv.map((row) => row.slice(width)), heads)
    .map((row) => denseRow(weights, `${prefix}.cross_attn.out`, row));
  out = gated(out, cross, part(5));
  // MLP.
  const m = modulateRows(out, part(6), part(7)).map((row) => denseRow(weights, `${prefix}.mlp.output`, denseRow(weights, `${prefix}.mlp.layers.0`, row).map(silu)));
  return gated(out, m, part(8));
}

const rows = (data: Float32Array, count: number, width: number): Matrix => Array.from({ length: count }, (_, row) => Array.from(data.subarray(row * width, (row + 1) * width)));

describe('DiT-X pieces', () => {
  test('attention on a hand example', async () => {
    // q = [1, 0], keys [1, 0] and [0, 1], values [1, 2] and [3, 4], dh = 2:
    // scores = [1/√2, 0] = [0.70711, 0]; softmax = e^0.70711/(e^0.70711 + 1) = 2.02811/3.02811 = [0.66976, 0.33024];
    // out = 0.66976·[1, 2] + 0.33024·[3, 4] = [1.66048, 2.66048].
    const out = scaledDotProductAttention(tf.tensor3d([[[1, 0]]]), tf.tensor3d([[[1, 0], [0, 1]]]), tf.tensor3d([[[1, 2], [3, 4]]]));
    const values = await out.data();
    expect(values[0]).toBeCloseTo(1.66048, 4);
    expect(values[1]).toBeCloseTo(2.66048, 4);
    out.dispose();
  });

  test('explicit gradients of attention and LayerNorm equal the built-in ones', async () => {
    const rng = createRng(3);
    const random = (shape: number[]) => tf.tensor(rng.fillNormal(new Float32Array(shape.reduce((a, b) => a * b, 1))), shape);
    const [q, k, v, weight] = [random([3, 4, 2]), random([3, 5, 2]), random([3, 5, 2]), random([3, 4, 2])];
    const builtIn = (qq: tf.Tensor, kk: tf.Tensor, vv: tf.Tensor) =>
      tf.sum(tf.mul(tf.matMul(tf.softmax(tf.div(tf.matMul(qq, kk, false, true), Math.sqrt(2))), vv), weight));
    const explicit = (qq: tf.Tensor, kk: tf.Tensor, vv: tf.Tensor) =>
      tf.sum(tf.mul(scaledDotProductAttention(qq as tf.Tensor3D, kk as tf.Tensor3D, vv as tf.Tensor3D), weight));
    const expected = tf.grads(builtIn)([q, k, v]);
    const actual = tf.grads(explicit)([q, k, v]);
    for (let input = 0; input < 3; input++) {
      const [e, a] = [await expected[input].data(), await actual[input].data()];
      a.forEach((value, offset) => expect(value).toBeCloseTo(e[offset], 5));
    }
    const x = random([2, 3, 6]);
    const lnWeight = random([2, 3, 6]);
    const lnBuiltIn = (input: tf.Tensor) => {
      const { mean, variance } = tf.moments(input, -1, true);
      return tf.sum(tf.mul(tf.div(tf.sub(input, mean), tf.sqrt(tf.add(variance, 1e-6))), lnWeight));
    };
    const [e, a] = [await tf.grad(lnBuiltIn)(x).data(), await tf.grad((input: tf.Tensor) => tf.sum(tf.mul(plainLayerNorm(input), lnWeight)))(x).data()];
    a.forEach((value, offset) => expect(value).toBeCloseTo(e[offset], 4));
    tf.dispose([q, k, v, weight, x, lnWeight, ...expected, ...actual]);
  });

  test('two-token attention on the hand example: σ of the score difference', async () => {
    // One head, dh = 2, the example above: p₁ = σ(q·(k₁ − k₀)/√2) = σ(−0.70711) = 0.33024;
    // out = v₀ + p₁(v₁ − v₀) = [1, 2] + 0.33024·[2, 2] = [1.66048, 2.66048], the softmax's answer.
    const out = twoTokenAttention(tf.tensor3d([[[1, 0]]]), tf.tensor3d([[[1, 0], [0, 1]]]), tf.tensor3d([[[1, 2], [3, 4]]]), 1);
    const values = await out.data();
    expect(values[0]).toBeCloseTo(1.66048, 4);
    expect(values[1]).toBeCloseTo(2.66048, 4);
    out.dispose();
  });

  test('two-token attention equals per-head softmax attention, values and gradients', async () => {
    // B = 3, Tq = 4, D = 6 in 3 heads of 2; the per-head path splits heads by hand.
    const rng = createRng(9);
    const random = (shape: number[]) => tf.tensor(rng.fillNormal(new Float32Array(shape.reduce((a, b) => a * b, 1))), shape);
    const [q, k, v, weight] = [random([3, 4, 6]), random([3, 2, 6]), random([3, 2, 6]), random([3, 4, 6])];
    const perHead = (x: tf.Tensor, tokens: number) => tf.reshape(tf.transpose(tf.reshape(x, [3, tokens, 3, 2]), [0, 2, 1, 3]), [9, tokens, 2]) as tf.Tensor3D;
    const softmaxPath = (qq: tf.Tensor, kk: tf.Tensor, vv: tf.Tensor) => {
      const attended = scaledDotProductAttention(perHead(qq, 4), perHead(kk, 2), perHead(vv, 2));
      return tf.reshape(tf.transpose(tf.reshape(attended, [3, 3, 4, 2]), [0, 2, 1, 3]), [3, 4, 6]);
    };
    const [expected, actual] = [await softmaxPath(q, k, v).data(), await twoTokenAttention(q, k, v, 3).data()];
    actual.forEach((value, offset) => expect(value).toBeCloseTo(expected[offset], 5));
    const loss = (path: (qq: tf.Tensor, kk: tf.Tensor, vv: tf.Tensor) => tf.Tensor) => (qq: tf.Tensor, kk: tf.Tensor, vv: tf.Tensor) => tf.sum(tf.mul(path(qq, kk, vv), weight));
    const expectedGrads = tf.grads(loss(softmaxPath))([q, k, v]);
    const actualGrads = tf.grads(loss((qq, kk, vv) => twoTokenAttention(qq, kk, vv, 3)))([q, k, v]);
    for (let input = 0; input < 3; input++) {
      const [e, a] = [await expectedGrads[input].data(), await actualGrads[input].data()];
      a.forEach((value, offset) => expect(value).toBeCloseTo(e[offset], 5));
    }
    tf.dispose([q, k, v, weight, ...expectedGrads, ...actualGrads]);
  });

  test('AdaLN modulation: LN(x)·(1 + scale) + shift per sample', async () => {
    // x = [1, 2, 3]: mean 2, var 2/3, x̂ = [−1.22474, 0, 1.22474]; scale 1, shift 0.5 → 2·x̂ + 0.5 = [−1.94949, 0.5, 2.94949].
    const out = modulate(tf.tensor3d([[[1, 2, 3]]]), tf.tensor2d([[0.5, 0.5, 0.5]]), tf.tensor2d([[1, 1, 1]]));
    const values = await out.data();
    [-1.94949, 0.5, 2.94949].forEach((value, offset) => expect(values[offset]).toBeCloseTo(value, 4));
    out.dispose();
  });
});

describe('DiT-X block', () => {
  test('one block equals a float64 reference on fresh random inputs', async () => {
    for (const seed of [1, 2]) {
      const { policy, weights } = await randomizedPolicy(seed);
      const rng = createRng(seed + 7);
      const [h, obs, c] = [rng.fillNormal(new Float32Array(2 * 3 * 4)), rng.fillNormal(new Float32Array(2 * 2 * 4)), rng.fillNormal(new Float32Array(2 * 4))];
      const out = tf.tidy(() => ditxBlock(policy.param, 'velocity.blocks.0', tf.tensor3d(h, [2, 3, 4]), tf.tensor3d(obs, [2, 2, 4]), tf.tensor2d(c, [2, 4]), 2));
      const values = await out.data();
      out.dispose();
      for (let sample = 0; sample < 2; sample++) {
        const expected = blockRef(weights, rows(h.subarray(sample * 12), 3, 4), rows(obs.subarray(sample * 8), 2, 4), Array.from(c.subarray(sample * 4, sample * 4 + 4)), 2);
        expected.flat().forEach((value, offset) => expect(values[sample * 12 + offset]).toBeCloseTo(value, 4));
      }
    }
  });

  test('a fresh block is the identity (AdaLN-Zero gates start at zero)', async () => {
    const policy = new FlowPolicy(tinyDitx, 5);
    owned.push(policy);
    const rng = createRng(11);
    const h = rng.fillNormal(new Float32Array(2 * 3 * 4));
    const out = tf.tidy(() => ditxBlock(policy.param, 'velocity.blocks.0', tf.tensor3d(h, [2, 3, 4]), tf.tensor3d(rng.fillNormal(new Float32Array(16)), [2, 2, 4]), tf.tensor2d(rng.fillNormal(new Float32Array(8)), [2, 4]), 2));
    expect(Array.from(await out.data())).toEqual(Array.from(h));
    out.dispose();
  });

  test('the velocity net reads every input: x, t, d and each observation token', async () => {
    const { policy } = await randomizedPolicy(4);
    const rng = createRng(12);
    const x = rng.fillNormal(new Float32Array(2 * 3 * 2));
    const features = rng.fillNormal(new Float32Array(2 * 10));
    const run = (xData: Float32Array, t: number, d: number, feat: Float32Array) => tf.tidy(() => {
      const { velocity, hidden } = policy.velocity(tf.tensor3d(xData, [2, 3, 2]), tf.tensor1d([t, t]), tf.tensor1d([d, d]), tf.tensor2d(feat, [2, 10]));
      expect(velocity.shape).toEqual([2, 6]);
      expect(hidden.shape).toEqual([2, 4]);
      return velocity.dataSync() as Float32Array;
    });
    const base = run(x, 0.5, 0.25, features);
    const differs = (other: Float32Array) => other.some((value, offset) => Math.abs(value - base[offset]) > 1e-5);
    expect(differs(run(x.map((value) => value + 0.3), 0.5, 0.25, features))).toBe(true);
    expect(differs(run(x, 0.75, 0.25, features))).toBe(true);
    expect(differs(run(x, 0.5, 0.5, features))).toBe(true);
    // Second observation token (features 5..9 of each row) alone.
    expect(differs(run(x, 0.5, 0.25, features.map((value, offset) => (offset % 10 >= 5 ? value + 0.5 : value))))).toBe(true);
  });
});
