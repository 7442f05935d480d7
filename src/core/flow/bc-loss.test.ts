import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { bcFlowLoss, bcTrainStep, DEFAULT_BC_LOSS_OPTIONS, drawBcInputs, validateBcLossOptions, type BcDraw } from './bc-loss';

const [B, H, A, OBS] = [6, 2, 2, 3];
let policy: FlowPolicy;
let obsData: Float32Array;
let actionData: Float32Array;

beforeAll(async () => {
  await useNodeBackend('wasm');
  policy = new FlowPolicy({ obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [4], noiseHidden: [4] }, 2);
  const rng = createRng(10);
  obsData = rng.fillNormal(new Float32Array(B * OBS));
  actionData = Float32Array.from({ length: B * H * A }, () => 2 * rng.uniform() - 1);
});
afterAll(() => policy.dispose());

/** v(x, t, d) for every row as float64 [B, H·A]; x is float64 [B·H·A]. */
async function velocityOf(x: Float64Array, t: number[], d: number[]): Promise<Float64Array> {
  const velocity = tf.tidy(() => {
    const features = policy.encode({ state: tf.tensor2d(obsData, [B, OBS]) });
    return policy.velocity(tf.tensor3d(Float32Array.from(x), [B, H, A]), tf.tensor1d(t), tf.tensor1d(d), features).velocity;
  });
  const data = Float64Array.from(await velocity.data());
  velocity.dispose();
  return data;
}

async function lossOf(draw: BcDraw) {
  const result = tf.tidy(() => {
    const out = bcFlowLoss(policy, { state: tf.tensor2d(obsData, [B, OBS]) }, tf.tensor3d(actionData, [B, H, A]), draw);
    return [out.loss, out.metrics.flow_mse, out.metrics.consistency_mse];
  });
  const [loss, flow, consistency] = await Promise.all(result.map(async (scalar) => (await scalar.data())[0]));
  tf.dispose(result);
  return { loss, flow, consistency };
}

describe('stage-1 flow-matching loss (DESIGN.md §3)', () => {
  test('plain rows: MSE of v(x_t, t, 0) against noise − action, x_t = t·noise + (1 − t)·action', async () => {
    const draw = drawBcInputs(B, H, A, DEFAULT_BC_LOSS_OPTIONS, createRng(3));
    expect(Array.from(draw.stepSize)).toEqual(new Array(B).fill(0));
    const elements = H * A;
    const xt = new Float64Array(B * elements);
    for (let offset = 0; offset < xt.length; offset++) {
      const t = draw.t[Math.floor(offset / elements)];
      xt[offset] = t * draw.noise[offset] + (1 - t) * actionData[offset];
    }
    const v = await velocityOf(xt, Array.from(draw.t), new Array(B).fill(0));
    let sum = 0;
    for (let offset = 0; offset < xt.length; offset++) sum += (v[offset] - (draw.noise[offset] - actionData[offset])) ** 2;
    const { loss, flow, consistency } = await lossOf(draw);
    expect(loss).toBeCloseTo(sum / xt.length, 5);
    expect(flow).toBeCloseTo(sum / xt.length, 5);
    expect(consistency).toBe(0);
  });

  test('shortcut rows regress v(x_t, t, 2d) on the two-step average of d-steps', async () => {
    const options = { ...DEFAULT_BC_LOSS_OPTIONS, shortcutFraction: 0.5 };
    const draw = drawBcInputs(B, H, A, options, createRng(4));
    const elements = H * A;
    const consistencyRows = 3;
    for (let row = 0; row < B; row++) {
      if (row < consistencyRows) {
        expect([1, 0.5, 0.25, 0.125]).toContain(draw.stepSize[row]);
        expect(draw.t[row]).toBeGreaterThanOrEqual(draw.stepSize[row]);
      } else {
        expect(draw.stepSize[row]).toBe(0);
      }
    }
    const xt = new Float64Array(B * elements);
    for (let offset = 0; offset < xt.length; offset++) {
      const t = draw.t[Math.floor(offset / elements)];
      xt[offset] = t * draw.noise[offset] + (1 - t) * actionData[offset];
    }
    const t = Array.from(draw.t);
    const bigStep = Array.from(draw.stepSize);
    const halfStep = bigStep.map((size) => size / 2);
    const predicted = await velocityOf(xt, t, bigStep);
    const first = await velocityOf(xt, t, halfStep);
    // x' = x_t − d·v(x_t, t, d), evaluated at t − d
    const xMid = xt.map((value, offset) => value - halfStep[Math.floor(offset / elements)] * first[offset]);
    const second = await velocityOf(xMid, t.map((time, row) => time - halfStep[row]), halfStep);
    let flowSum = 0;
    let consistencySum = 0;
    for (let offset = 0; offset < xt.length; offset++) {
      const row = Math.floor(offset / elements);
      if (row < consistencyRows) consistencySum += (predicted[offset] - (first[offset] + second[offset]) / 2) ** 2;
      else flowSum += (predicted[offset] - (draw.noise[offset] - actionData[offset])) ** 2;
    }
    const { loss, flow, consistency } = await lossOf(draw);
    expect(consistency).toBeCloseTo(consistencySum / (consistencyRows * elements), 5);
    expect(flow).toBeCloseTo(flowSum / ((B - consistencyRows) * elements), 5);
    expect(loss).toBeCloseTo((flowSum + consistencySum) / (B * elements), 5);
  });

  test('Beta time sampling has the Beta(a, b) mean', () => {
    const draw = drawBcInputs(4000, 1, 1, { ...DEFAULT_BC_LOSS_OPTIONS, timeSampling: 'beta', betaA: 1.5, betaB: 1 }, createRng(5));
    const mean = draw.t.reduce((sum, t) => sum + t, 0) / draw.t.length;
    // Beta(1.5, 1): mean 1.5/2.5 = 0.6, sd sqrt(1.5/(6.25·3.5)) = 0.262, standard error 0.0041.
    expect(Math.abs(mean - 0.6)).toBeLessThan(0.02);
    expect(draw.t.every((t) => t > 0 && t < 1)).toBe(true);
  });

  test('training steps reduce the loss on a fixed batch, touch only encoder and velocity, and leak nothing', async () => {
    const local = new FlowPolicy({ obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [32, 32], encoderHidden: [16], valueHidden: [4], noiseHidden: [4] }, 8);
    const obs = tf.tensor2d(obsData, [B, OBS]);
    const actions = tf.tensor3d(actionData, [B, H, A]);
    const optimizer = tf.train.adam(3e-3);
    const draw = drawBcInputs(B, H, A, DEFAULT_BC_LOSS_OPTIONS, createRng(6));
    const valueBefore = Array.from(await local.param('value.output.kernel').data());
    const first = await bcTrainStep(local, optimizer, { state: obs }, actions, draw);
    const tensorsAfterFirst = tf.memory().numTensors;
    let last = first;
    for (let step = 0; step < 60; step++) last = await bcTrainStep(local, optimizer, { state: obs }, actions, draw);
    expect(tf.memory().numTensors).toBe(tensorsAfterFirst);
    expect(last.loss).toBeLessThan(0.5 * first.loss);
    expect(Array.from(await local.param('value.output.kernel').data())).toEqual(valueBefore);
    tf.dispose([obs, actions]);
    optimizer.dispose();
    local.dispose();
  });

  test('bad options and shapes throw named errors naming the field', () => {
    const plain = new FlowPolicy({ obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [4], encoderHidden: [], shortcut: false, noiseHead: false, valueHidden: [] }, 1);
    expect(() => validateBcLossOptions({ ...DEFAULT_BC_LOSS_OPTIONS, shortcutFraction: 0.5 }, plain)).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'shortcutFraction' }));
    expect(() => validateBcLossOptions({ ...DEFAULT_BC_LOSS_OPTIONS, timeSampling: 'logit' as 'beta' }, plain)).toThrow(/timeSampling must be one of uniform, beta/);
    expect(() => validateBcLossOptions({ ...DEFAULT_BC_LOSS_OPTIONS, betaB: 0 }, plain)).toThrow(expect.objectContaining({ field: 'betaA' }));
    plain.dispose();
    expect(() => drawBcInputs(B, H, A, { ...DEFAULT_BC_LOSS_OPTIONS, shortcutFraction: 2 }, createRng(1))).toThrow(expect.objectContaining({ field: 'shortcutFraction' }));
    const draw = drawBcInputs(B, H, A, DEFAULT_BC_LOSS_OPTIONS, createRng(1));
    const obs = tf.tensor2d(obsData, [B, OBS]);
    const wrongActions = tf.zeros([B, H + 1, A]);
    expect(() => bcFlowLoss(policy, { state: obs }, wrongActions, draw)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'actions' }));
    const actions = tf.tensor3d(actionData, [B, H, A]);
    expect(() => bcFlowLoss(policy, { state: obs }, actions, { ...draw, t: draw.t.subarray(1) })).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'draw' }));
    tf.dispose([obs, wrongActions, actions]);
  });
});
