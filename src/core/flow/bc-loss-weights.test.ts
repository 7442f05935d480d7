import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { bcFlowLoss, DEFAULT_BC_LOSS_OPTIONS, drawBcInputs, type BcDraw } from './bc-loss';

const [B, H, A, OBS] = [6, 2, 2, 3];
let policy: FlowPolicy;
let obsData: Float32Array;
let actionData: Float32Array;
/** Half the rows on the shortcut target, so the weights reach both kinds of row. */
let draw: BcDraw;

beforeAll(async () => {
  await useNodeBackend('wasm');
  policy = new FlowPolicy({ obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [4], noiseHidden: [4] }, 3);
  const rng = createRng(11);
  obsData = rng.fillNormal(new Float32Array(B * OBS));
  actionData = Float32Array.from({ length: B * H * A }, () => 2 * rng.uniform() - 1);
  draw = drawBcInputs(B, H, A, { ...DEFAULT_BC_LOSS_OPTIONS, shortcutFraction: 0.5 }, rng);
});
afterAll(() => policy.dispose());

/** The loss and its gradients on the encoder and velocity net, as float64, for actions and optional weights. */
async function lossAndGrads(actions: Float32Array, weights?: number[]): Promise<{ loss: number; grads: Map<string, Float64Array> }> {
  const trainable = [...policy.namedVariables()].filter(([name]) => name.startsWith('encoder.') || name.startsWith('velocity.'));
  const obs = tf.tensor2d(obsData, [B, OBS]);
  const actionTensor = tf.tensor3d(actions, [B, H, A]);
  const weightTensor = weights ? tf.tensor1d(weights) : undefined;
  const { value, grads } = tf.variableGrads(() => bcFlowLoss(policy, { state: obs }, actionTensor, draw, weightTensor).loss, trainable.map(([, variable]) => variable));
  const out = new Map<string, Float64Array>();
  for (const [name, variable] of trainable) out.set(name, Float64Array.from(await grads[variable.name].data()));
  const loss = (await value.data())[0];
  tf.dispose([obs, actionTensor, value, ...Object.values(grads), ...(weightTensor ? [weightTensor] : [])]);
  return { loss, grads: out };
}

function maxGradDifference(a: Map<string, Float64Array>, b: Map<string, Float64Array>): number {
  let most = 0;
  for (const [name, values] of a) values.forEach((value, index) => { most = Math.max(most, Math.abs(value - b.get(name)![index])); });
  return most;
}

describe('advantage-weighted flow-matching loss (stage 2)', () => {
  test('weights of 1 give the unweighted loss and gradients', async () => {
    const plain = await lossAndGrads(actionData);
    const unit = await lossAndGrads(actionData, new Array(B).fill(1));
    expect(unit.loss).toBe(plain.loss);
    expect(maxGradDifference(unit.grads, plain.grads)).toBe(0);
  });

  test('the loss is (1/B)·Σ w_b·mse_b, against per-row errors read back one row at a time', async () => {
    // A one-hot weight on row b gives mse_b / B, so B·loss(e_b) is row b's own error (flow or shortcut row).
    const rowErrors: number[] = [];
    for (let row = 0; row < B; row++) {
      const oneHot = Array.from({ length: B }, (_, index) => (index === row ? 1 : 0));
      rowErrors.push(B * (await lossAndGrads(actionData, oneHot)).loss);
    }
    const weights = [0.2, 3.5, 0, 1.25, 0.05, 1];
    const expected = rowErrors.reduce((sum, error, row) => sum + weights[row] * error, 0) / B;
    expect((await lossAndGrads(actionData, weights)).loss).toBeCloseTo(expected, 6);
    const plain = (await lossAndGrads(actionData)).loss;
    expect(plain).toBeCloseTo(rowErrors.reduce((sum, error) => sum + error, 0) / B, 6);
  });

  test('a zero weight removes a sample: its target no longer moves the gradient', async () => {
    const moved = actionData.slice();
    // Row 4 is a plain flow-matching row; row 1 a shortcut row (whose target is the detached two-step average).
    for (const row of [1, 4]) for (let offset = row * H * A; offset < (row + 1) * H * A; offset++) moved[offset] = -moved[offset] + 0.3;
    const weights = [1, 0, 1, 1, 0, 1];
    const before = await lossAndGrads(actionData, weights);
    const after = await lossAndGrads(moved, weights);
    expect(after.loss).toBe(before.loss);
    expect(maxGradDifference(after.grads, before.grads)).toBe(0);
    // With weight 1 the same change does move the gradient.
    const unitBefore = await lossAndGrads(actionData, new Array(B).fill(1));
    const unitAfter = await lossAndGrads(moved, new Array(B).fill(1));
    expect(maxGradDifference(unitAfter.grads, unitBefore.grads)).toBeGreaterThan(1e-4);
  });

  test('weights of the wrong shape throw a ShapeError naming rowWeights', () => {
    const obs = tf.tensor2d(obsData, [B, OBS]);
    const actions = tf.tensor3d(actionData, [B, H, A]);
    const weights = tf.ones([B - 1]);
    expect(() => bcFlowLoss(policy, { state: obs }, actions, draw, weights)).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'rowWeights' }));
    expect(() => bcFlowLoss(policy, { state: obs }, actions, draw, weights)).toThrow('rowWeights must be [B] = [6], got [5]');
    tf.dispose([obs, actions, weights]);
  });
});
