import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { FlowPolicy, type WeightEntry } from './flow-policy';
import { expectedParameterShapes } from './param-shapes';
import { resolveFlowPolicyOptions } from './options';
import { stopGradient } from './stop-gradient';

const tiny = { obsDim: 3, horizon: 2, actionDim: 2, nObsSteps: 2, velocityHidden: [6, 6, 5], encoderHidden: [4], valueHidden: [3], noiseHidden: [4], timeEmbedDim: 4 };
const owned: FlowPolicy[] = [];
function build(options: Parameters<typeof resolveFlowPolicyOptions>[0], seed = 0): FlowPolicy {
  const policy = new FlowPolicy(options, seed);
  owned.push(policy);
  return policy;
}

beforeAll(async () => {
  await useNodeBackend('wasm');
});
afterEach(() => {
  owned.splice(0).forEach((policy) => policy.dispose());
});

// Float64 helpers for the references below.
const silu = (x: number) => x / (1 + Math.exp(-x));
function denseRef(weights: Map<string, WeightEntry>, prefix: string, input: number[]): number[] {
  const kernel = weights.get(`${prefix}.kernel`)!;
  const bias = weights.get(`${prefix}.bias`)!;
  const [inSize, outSize] = kernel.shape;
  expect(input.length).toBe(inSize);
  return Array.from({ length: outSize }, (_, column) => {
    let sum = bias.data[column];
    for (let row = 0; row < inSize; row++) sum += input[row] * kernel.data[row * outSize + column];
    return sum;
  });
}
function embedRef(t: number, dim: number): number[] {
  const half = dim / 2;
  const angles = Array.from({ length: half }, (_, j) => 1000 * t * Math.exp((-Math.log(10000) * j) / half));
  return [...angles.map(Math.sin), ...angles.map(Math.cos)];
}

describe('architecture and parameter names', () => {
  test('expected names and shapes match the built variables, without building', () => {
    const options = resolveFlowPolicyOptions(tiny);
    const shapes = expectedParameterShapes(options);
    // velocity input = H·A + F + 2·E = 4 + 4 + 8 = 16
    expect(shapes.get('velocity.input.kernel')).toEqual([16, 6]);
    expect(shapes.get('velocity.blocks.0.dense.kernel')).toEqual([6, 6]);
    expect(shapes.get('velocity.blocks.1.dense.kernel')).toEqual([6, 5]);
    expect(shapes.get('velocity.output.kernel')).toEqual([5, 4]);
    expect(shapes.get('encoder.layers.0.kernel')).toEqual([6, 4]);
    expect(shapes.get('noise_head.layers.0.kernel')).toEqual([8, 4]);
    expect(shapes.get('noise_head.output.kernel')).toEqual([4, 4]);
    expect(shapes.get('value.layers.0.kernel')).toEqual([4, 3]);
    expect(shapes.get('value.output.bias')).toEqual([1]);
    const policy = build(tiny);
    expect([...policy.namedVariables().keys()]).toEqual([...shapes.keys()]);
    for (const [name, variable] of policy.namedVariables()) expect(variable.shape).toEqual(shapes.get(name));
    const expert = expectedParameterShapes(resolveFlowPolicyOptions({ ...tiny, valueOn: 'expert', noiseHead: false, shortcut: false }));
    expect(expert.get('value.layers.0.kernel')).toEqual([5, 3]);
    expect(expert.get('velocity.input.kernel')).toEqual([12, 6]);
    expect([...expert.keys()].some((name) => name.startsWith('noise_head.'))).toBe(false);
  });

  test('actor and critic groups split the parameters', () => {
    const policy = build(tiny);
    const actor = new Set(policy.actorVariables());
    const critic = new Set(policy.criticVariables());
    expect(actor.size + critic.size).toBe(policy.namedVariables().size);
    for (const [name, variable] of policy.namedVariables()) expect(critic.has(variable)).toBe(name.startsWith('value.'));
  });

  test('bad options throw a ConfigError naming the field and the allowed values', () => {
    expect(() => resolveFlowPolicyOptions({ ...tiny, obsEncoder: 'voxels' as 'state' })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'obsEncoder', message: expect.stringContaining('state, pointcloud, image') }));
    expect(() => resolveFlowPolicyOptions({ ...tiny, obsEncoder: 'image' })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'image' }));
    expect(() => resolveFlowPolicyOptions({ ...tiny, horizon: 0 })).toThrow(expect.objectContaining({ field: 'horizon' }));
    expect(() => resolveFlowPolicyOptions({ ...tiny, velocityHidden: [] })).toThrow(expect.objectContaining({ field: 'velocityHidden' }));
    expect(() => resolveFlowPolicyOptions({ ...tiny, velocityHidden: [8, 2.5] })).toThrow(expect.objectContaining({ field: 'velocityHidden[1]' }));
    expect(() => resolveFlowPolicyOptions({ ...tiny, timeEmbedDim: 5 })).toThrow(expect.objectContaining({ field: 'timeEmbedDim' }));
    expect(() => resolveFlowPolicyOptions({ ...tiny, valueOn: 'vlm' as 'obs' })).toThrow(/valueOn must be one of obs, expert/);
  });
});

describe('weights', () => {
  test('getWeights / setWeights round trip reproduces outputs; same seed gives same weights', async () => {
    const source = build(tiny, 4);
    const target = build(tiny, 5);
    const twin = build(tiny, 4);
    const weights = await source.getWeights();
    const twinWeights = await twin.getWeights();
    for (const [name, entry] of weights) expect(Array.from(twinWeights.get(name)!.data)).toEqual(Array.from(entry.data));
    const obs = tf.tensor2d(createRng(1).fillNormal(new Float32Array(6)), [1, 6]);
    const encode = async (policy: FlowPolicy) => {
      const features = tf.tidy(() => policy.encode({ state: obs }));
      const data = Array.from(await features.data());
      features.dispose();
      return data;
    };
    expect(await encode(target)).not.toEqual(await encode(source));
    target.setWeights(weights);
    expect(await encode(target)).toEqual(await encode(source));
    obs.dispose();
  });

  test('setWeights rejects missing, extra and misshaped tensors with ShapeError naming the tensor and both shapes', async () => {
    const policy = build(tiny);
    const weights = await policy.getWeights();
    const missing = new Map(weights);
    missing.delete('value.output.kernel');
    expect(() => policy.setWeights(missing)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'value.output.kernel' }));
    const misshaped = new Map(weights);
    misshaped.set('velocity.input.kernel', { shape: [15, 6], data: new Float32Array(90) });
    expect(() => policy.setWeights(misshaped)).toThrow("tensor 'velocity.input.kernel' has shape [15, 6] (90 values) but the policy expects [16, 6]");
    const extra = new Map(weights);
    extra.set('velocity.extra.kernel', { shape: [1], data: new Float32Array(1) });
    expect(() => policy.setWeights(extra)).toThrow(expect.objectContaining({ field: 'velocity.extra.kernel' }));
  });

  test('dispose frees every variable', () => {
    const before = tf.memory().numTensors;
    const policy = new FlowPolicy(tiny, 1);
    expect(tf.memory().numTensors).toBe(before + policy.shapes.size);
    policy.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('forward passes against float64 references', () => {
  test('state encoder and residual velocity MLP with time and step embeddings', async () => {
    const policy = build(tiny, 9);
    const weights = await policy.getWeights();
    const rng = createRng(12);
    const obsData = rng.fillNormal(new Float32Array(6));
    const xData = rng.fillNormal(new Float32Array(4));
    const [t, d] = [0.75, 0.25];
    const velocity = tf.tidy(() => {
      const features = policy.encode({ state: tf.tensor3d(obsData, [1, 2, 3]) });
      return policy.velocity(tf.tensor3d(xData, [1, 2, 2]), tf.tensor1d([t]), tf.tensor1d([d]), features).velocity;
    });
    const features = denseRef(weights, 'encoder.layers.0', Array.from(obsData)).map(silu);
    let h = denseRef(weights, 'velocity.input', [...Array.from(xData), ...features, ...embedRef(t, 4), ...embedRef(d, 4)]).map(silu);
    // block 0 keeps width 6 → residual; block 1 changes to 5 → no residual.
    const block0 = denseRef(weights, 'velocity.blocks.0.dense', h).map(silu);
    h = h.map((value, unit) => value + block0[unit]);
    h = denseRef(weights, 'velocity.blocks.1.dense', h).map(silu);
    const expected = denseRef(weights, 'velocity.output', h);
    (await velocity.data()).forEach((value, offset) => expect(value).toBeCloseTo(expected[offset], 4));
    velocity.dispose();
  });

  test('PointNet: per-point MLP, max-pool, projection, LayerNorm, then proprioception; point order does not matter', async () => {
    const pointCount = 7;
    const options = { ...tiny, obsEncoder: 'pointcloud' as const, numPoints: pointCount, nObsSteps: 1, encoderHidden: [5, 4], pointFeatureDim: 3 };
    const policy = build(options, 2);
    const weights = await policy.getWeights();
    const rng = createRng(6);
    const points = rng.fillNormal(new Float32Array(pointCount * 3));
    const proprio = rng.fillNormal(new Float32Array(3));
    const reversed = new Float32Array(points.length);
    for (let pointIndex = 0; pointIndex < pointCount; pointIndex++) reversed.set(points.subarray(pointIndex * 3, pointIndex * 3 + 3), (pointCount - 1 - pointIndex) * 3);
    // A frame is the env's flat layout: [points N×3 | proprioception].
    const frame = (cloud: Float32Array) => tf.tensor2d([...cloud, ...proprio], [1, pointCount * 3 + 3]);
    const [features, featuresReversed] = tf.tidy(() => [policy.encode({ state: frame(points) }), policy.encode({ state: frame(reversed) })]);
    const pooled = new Array<number>(4).fill(-Infinity);
    for (let pointIndex = 0; pointIndex < pointCount; pointIndex++) {
      const hidden = denseRef(weights, 'encoder.points.layers.0', Array.from(points.subarray(pointIndex * 3, pointIndex * 3 + 3))).map(silu);
      denseRef(weights, 'encoder.points.layers.1', hidden).map(silu).forEach((value, unit) => { pooled[unit] = Math.max(pooled[unit], value); });
    }
    const projected = denseRef(weights, 'encoder.project', pooled);
    const mean = projected.reduce((sum, value) => sum + value, 0) / projected.length;
    const variance = projected.reduce((sum, value) => sum + (value - mean) ** 2, 0) / projected.length;
    const gamma = weights.get('encoder.norm.gamma')!.data;
    const beta = weights.get('encoder.norm.beta')!.data;
    const normalized = projected.map((value, unit) => ((value - mean) / Math.sqrt(variance + 1e-5)) * gamma[unit] + beta[unit]);
    const expected = [...normalized, ...Array.from(proprio)];
    const data = await features.data();
    expect(features.shape).toEqual([1, 6]);
    data.forEach((value, offset) => expect(value).toBeCloseTo(expected[offset], 4));
    (await featuresReversed.data()).forEach((value, offset) => expect(value).toBeCloseTo(data[offset], 6));
    tf.dispose([features, featuresReversed]);
    expect(() => policy.encode({ state: tf.zeros([1, pointCount * 3 + 2]) })).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'obs.state' }));
  });

  test('PointNet with history: each frame is one token, encoded with the same weights', async () => {
    const pointCount = 5;
    const options = { ...tiny, obsEncoder: 'pointcloud' as const, numPoints: pointCount, nObsSteps: 2, encoderHidden: [4], pointFeatureDim: 3 };
    const policy = build(options, 4);
    const frameSize = pointCount * 3 + 3;
    const rng = createRng(9);
    const frames = rng.fillNormal(new Float32Array(2 * frameSize));
    const [both, first, second] = tf.tidy(() => [
      policy.encode({ state: tf.tensor2d(frames, [1, 2 * frameSize]) }),
      policy.encode({ state: tf.tensor2d(frames.subarray(0, frameSize), [1, frameSize]).tile([1, 2]) }),
      policy.encode({ state: tf.tensor2d(frames.subarray(frameSize), [1, frameSize]).tile([1, 2]) }),
    ]);
    // Token width = pointFeatureDim 3 + proprioception 3 = 6; two frames → 12 features.
    expect(both.shape).toEqual([1, 12]);
    const [all, a, b] = [await both.data(), await first.data(), await second.data()];
    for (let unit = 0; unit < 6; unit++) {
      expect(all[unit]).toBeCloseTo(a[unit], 6);
      expect(all[6 + unit]).toBeCloseTo(b[6 + unit], 6);
    }
    tf.dispose([both, first, second]);
  });
});

describe('stop gradient and detached critic input', () => {
  test('stopGradient passes values forward and zero gradient back', async () => {
    const x = tf.tensor1d([1, -2, 3]);
    const gradient = tf.grad((input: tf.Tensor) => tf.sum(tf.add(tf.mul(stopGradient(input), input), input)))(x);
    // d/dx [sg(x)·x + x] = sg(x) + 1 = [2, −1, 4] (the product rule's other term is stopped)
    expect(Array.from(await gradient.data())).toEqual([2, -1, 4]);
    const forward = stopGradient(x);
    expect(Array.from(await forward.data())).toEqual([1, -2, 3]);
    tf.dispose([x, gradient, forward]);
  });

  test('critic loss reaches the encoder only when detachCriticInput is false', async () => {
    const encoderGradNorm = async (detachCriticInput: boolean) => {
      const policy = build({ ...tiny, detachCriticInput }, 3);
      const obs = tf.tensor2d(createRng(2).fillNormal(new Float32Array(12)), [2, 6]);
      const encoder = [...policy.namedVariables()].filter(([name]) => name.startsWith('encoder.')).map(([, variable]) => variable);
      const critic = policy.criticVariables();
      const { value, grads } = tf.variableGrads(() => tf.sum(tf.square(policy.value(policy.encode({ state: obs })))) as tf.Scalar, [...encoder, ...critic]);
      let encoderNorm = 0;
      let criticNorm = 0;
      for (const variable of encoder) encoderNorm += grads[variable.name] ? (await tf.sum(tf.square(grads[variable.name])).data())[0] : 0;
      for (const variable of critic) criticNorm += (await tf.sum(tf.square(grads[variable.name])).data())[0];
      tf.dispose([value, obs, ...Object.values(grads)]);
      return { encoderNorm, criticNorm };
    };
    const detached = await encoderGradNorm(true);
    const attached = await encoderGradNorm(false);
    expect(detached.encoderNorm).toBe(0);
    expect(detached.criticNorm).toBeGreaterThan(0);
    expect(attached.encoderNorm).toBeGreaterThan(0);
  });
});
