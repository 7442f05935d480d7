import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { FlowPolicy, type WeightEntry } from './flow-policy';
import { mishRef, sinusoidRef, denseRef, unet1dRef, type Rows } from './fixtures/unet1d-reference';
import { resolveFlowPolicyOptions, type FlowPolicyOptions } from './options';
import { expectedParameterShapes } from './param-shapes';

// Two levels of widths 4 and 8 (one halving), kernel 3, 2 groups; H = 4, A = 2, two observation frames of 3.
const tinyUnet = {
  obsDim: 3, horizon: 4, actionDim: 2, nObsSteps: 2, velocityNet: 'unet1d' as const, unetDims: [4, 8], unetKernel: 3, unetGroups: 2,
  encoderHidden: [5], valueHidden: [3], noiseHidden: [4], timeEmbedDim: 4,
};
const owned: FlowPolicy[] = [];
afterEach(() => owned.splice(0).forEach((policy) => policy.dispose()));
beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** A UNet1D policy with every weight random (norm scales near 1), so no zero hides a path. */
async function randomizedPolicy(options: Parameters<typeof resolveFlowPolicyOptions>[0], seed: number): Promise<{ policy: FlowPolicy; weights: Map<string, WeightEntry> }> {
  const policy = new FlowPolicy(options, seed);
  owned.push(policy);
  const rng = createRng(seed + 100);
  const weights = await policy.getWeights();
  for (const [name, entry] of weights) {
    const noise = rng.fillNormal(new Float32Array(entry.data.length));
    entry.data = name.endsWith('.gamma') ? noise.map((value) => 1 + 0.2 * value) : noise.map((value) => 0.5 * value);
  }
  policy.setWeights(weights);
  return { policy, weights };
}

const rows = (data: Float32Array, sample: number, length: number, width: number): Rows =>
  Array.from({ length }, (_, row) => Array.from(data.subarray((sample * length + row) * width, (sample * length + row + 1) * width)));

describe('UNet1D parameters', () => {
  test('names and shapes: the expected map equals the built variables, with hand-counted shapes', () => {
    const options = resolveFlowPolicyOptions(tinyUnet);
    const shapes = expectedParameterShapes(options);
    // cond = [emb(t) 4 | emb(d) 4 | features 5] = 13 wide; time MLP 4 → 16 → 4.
    expect(shapes.get('velocity.time.0.kernel')).toEqual([4, 16]);
    expect(shapes.get('velocity.step.1.kernel')).toEqual([16, 4]);
    expect(shapes.get('velocity.down.0.res0.block0.conv.kernel')).toEqual([3, 2, 4]);
    expect(shapes.get('velocity.down.0.res0.residual.kernel')).toEqual([2, 4]);
    expect(shapes.has('velocity.down.0.res1.residual.kernel')).toBe(false);
    expect(shapes.get('velocity.down.0.res0.film.kernel')).toEqual([13, 8]);
    expect(shapes.get('velocity.down.0.downsample.kernel')).toEqual([3, 4, 4]);
    expect(shapes.has('velocity.down.1.downsample.kernel')).toBe(false);
    expect(shapes.get('velocity.mid.res1.film.kernel')).toEqual([13, 16]);
    // Up: concat of 8 + 8 channels → 4, then a transposed conv [4 taps, 4, 4].
    expect(shapes.get('velocity.up.0.res0.block0.conv.kernel')).toEqual([3, 16, 4]);
    expect(shapes.get('velocity.up.0.res0.residual.kernel')).toEqual([16, 4]);
    expect(shapes.get('velocity.up.0.upsample.kernel')).toEqual([4, 4, 4]);
    expect(shapes.get('velocity.final.norm.gamma')).toEqual([4]);
    expect(shapes.get('velocity.output.kernel')).toEqual([4, 2]);
    // Noise head on [features 5 | emb(t) 4 | emb(d) 4]; value_on expert reads the final block's 4 channels.
    expect(shapes.get('noise_head.layers.0.kernel')).toEqual([13, 4]);
    expect(expectedParameterShapes(resolveFlowPolicyOptions({ ...tinyUnet, valueOn: 'expert' })).get('value.layers.0.kernel')).toEqual([4, 3]);
    const policy = new FlowPolicy(tinyUnet, 0);
    owned.push(policy);
    expect([...policy.namedVariables().keys()]).toEqual([...shapes.keys()]);
    for (const [name, variable] of policy.namedVariables()) expect(variable.shape).toEqual(shapes.get(name));
    const noShortcut = expectedParameterShapes(resolveFlowPolicyOptions({ ...tinyUnet, shortcut: false }));
    expect([...noShortcut.keys()].some((name) => name.startsWith('velocity.step.'))).toBe(false);
    expect(noShortcut.get('velocity.mid.res0.film.kernel')).toEqual([9, 16]);
  });

  test('a horizon the down-sampling cannot halve, groups that do not divide a width, or an even kernel are refused at construction', () => {
    expect(() => new FlowPolicy({ ...tinyUnet, horizon: 6, unetDims: [4, 8, 8] })).toThrow(expect.objectContaining({
      name: 'ConfigError', field: 'horizon', message: 'horizon (6) must be a multiple of 4, the UNet1D\'s down-sampling over its 3 levels [4, 8, 8]',
    }));
    expect(() => new FlowPolicy({ ...tinyUnet, unetDims: [4, 6], unetGroups: 4 })).toThrow(expect.objectContaining({
      name: 'ConfigError', field: 'unetGroups', message: 'unetGroups (4) must divide every UNet1D width, but not 6 of unetDims [4, 6]',
    }));
    expect(() => new FlowPolicy({ ...tinyUnet, unetKernel: 4 })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'unetKernel' }));
    // Other nets ignore the UNet sizes: an odd horizon with three levels is fine for the MLP.
    expect(() => resolveFlowPolicyOptions({ ...tinyUnet, velocityNet: 'mlp', horizon: 5, unetDims: [4, 8, 8] })).not.toThrow();
  });
});

describe('UNet1D forward', () => {
  const cases: Array<[string, Partial<FlowPolicyOptions>]> = [
    ['two levels with the step-size input', {}],
    ['two levels without it (the diffusion family\'s net)', { shortcut: false }],
    ['three levels, H 8, kernel 5', { horizon: 8, unetDims: [4, 8, 8], unetKernel: 5 }],
    ['one level (no resampling)', { horizon: 3, unetDims: [6], unetGroups: 3 }],
  ];
  for (const [name, patch] of cases) {
    test(`${name}: velocity and hidden equal the float64 reference`, async () => {
      const options = { ...tinyUnet, ...patch };
      const { policy, weights } = await randomizedPolicy(options, 3);
      const { horizon, actionDim } = policy.options;
      const rng = createRng(30);
      const batch = 3;
      const x = rng.fillNormal(new Float32Array(batch * horizon * actionDim));
      const features = rng.fillNormal(new Float32Array(batch * 5));
      const t = [0.9, 0.4, 0.05];
      const d = [0.25, 0.5, 0.125];
      const { velocity, hidden } = tf.tidy(() => policy.velocity(tf.tensor3d(x, [batch, horizon, actionDim]), tf.tensor1d(t), tf.tensor1d(d), tf.tensor2d(features, [batch, 5])));
      expect(velocity.shape).toEqual([batch, horizon * actionDim]);
      const [velocityData, hiddenData] = [await velocity.data(), await hidden.data()];
      const width = policy.options.unetDims[0];
      for (let sample = 0; sample < batch; sample++) {
        const expected = unet1dRef(weights, policy.options, rows(x, sample, horizon, actionDim), t[sample], d[sample], Array.from(features.subarray(sample * 5, (sample + 1) * 5)));
        expected.velocity.flat().forEach((value, offset) => expect(velocityData[sample * horizon * actionDim + offset]).toBeCloseTo(value, 4));
        expected.hidden.forEach((value, offset) => expect(hiddenData[sample * width + offset]).toBeCloseTo(value, 4));
      }
      tf.dispose([velocity, hidden]);
    });
  }

  test('the noise head reads [features | the learned emb(t) | emb(d)], with no gradient into the embeddings', async () => {
    const { policy, weights } = await randomizedPolicy(tinyUnet, 5);
    const rng = createRng(31);
    const features = rng.fillNormal(new Float32Array(2 * 5));
    const [t, d] = [[0.75, 0.25], [0.25, 0.25]];
    const bounds = { stdMin: 0.05, stdMax: 0.3 };
    const std = tf.tidy(() => policy.noiseStd(tf.tensor2d(features, [2, 5]), tf.tensor1d(t), bounds, tf.tensor1d(d)));
    const values = await std.data();
    const embed = (prefix: string, value: number) => denseRef(weights, `${prefix}.1`, denseRef(weights, `${prefix}.0`, sinusoidRef(value, 4)).map(mishRef));
    for (let sample = 0; sample < 2; sample++) {
      const input = [...features.subarray(sample * 5, (sample + 1) * 5), ...embed('velocity.time', t[sample]), ...embed('velocity.step', d[sample])];
      // noise_head: one SiLU layer of 4, then the output layer of H·A = 8 raw values, bounded as policy/noise-head.ts.
      const hiddenLayer = denseRef(weights, 'noise_head.layers.0', input).map((value) => value / (1 + Math.exp(-value)));
      denseRef(weights, 'noise_head.output', hiddenLayer).forEach((raw, offset) => {
        const [lo, hi] = [2 * Math.log(0.05), 2 * Math.log(0.3)];
        expect(values[sample * 8 + offset]).toBeCloseTo(Math.exp((lo + ((hi - lo) * (Math.tanh(raw) + 1)) / 2) / 2), 5);
      });
    }
    std.dispose();
    const embeddingVariables = [...policy.namedVariables()].filter(([name]) => name.startsWith('velocity.time.') || name.startsWith('velocity.step.')).map(([, variable]) => variable);
    const { value, grads } = tf.variableGrads(() => tf.sum(policy.noiseStd(tf.tensor2d(features, [2, 5]), tf.tensor1d(t), bounds, tf.tensor1d(d))) as tf.Scalar, embeddingVariables);
    for (const grad of Object.values(grads)) expect(Array.from(await grad.data()).every((entry) => entry === 0)).toBe(true);
    tf.dispose([value, ...Object.values(grads)]);
    expect(() => policy.noiseStd(tf.tensor2d(features, [2, 5]), tf.tensor1d(t), bounds)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'stepSize' }));
  });
});

describe('UNet1D gradients', () => {
  test('every parameter of the encoder, velocity net and noise head gets a non-zero gradient', async () => {
    const { policy } = await randomizedPolicy({ ...tinyUnet, horizon: 8, unetDims: [4, 8, 8] }, 7);
    const rng = createRng(32);
    const batch = 4;
    const obs = tf.tensor2d(rng.fillNormal(new Float32Array(batch * 6)), [batch, 6]);
    const x = tf.tensor3d(rng.fillNormal(new Float32Array(batch * 8 * 2)), [batch, 8, 2]);
    const target = tf.tensor2d(rng.fillNormal(new Float32Array(batch * 16)), [batch, 16]);
    const t = tf.tensor1d([0.9, 0.6, 0.3, 0.1]);
    const d = tf.tensor1d([0.5, 0.25, 0.125, 0.25]);
    const actor = [...policy.namedVariables()].filter(([name]) => !name.startsWith('value.'));
    const { value, grads } = tf.variableGrads(() => tf.tidy(() => {
      const features = policy.encode({ state: obs });
      const velocityLoss = tf.mean(tf.square(tf.sub(policy.velocity(x, t, d, features).velocity, target)));
      const noiseLoss = tf.mean(policy.noiseStd(features, t, { stdMin: 0.05, stdMax: 0.3 }, d));
      return tf.add(velocityLoss, noiseLoss) as tf.Scalar;
    }), actor.map(([, variable]) => variable));
    const silent: string[] = [];
    for (const [name, variable] of actor) {
      const gradient = await grads[variable.name].data();
      if (!gradient.some((entry) => entry !== 0 && Number.isFinite(entry))) silent.push(name);
    }
    expect(silent).toEqual([]);
    expect(actor.length).toBeGreaterThan(60);
    tf.dispose([value, ...Object.values(grads), obs, x, target, t, d]);
  });
});
