import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { bcRegularizerLoss, type BcRegularizerSlice } from './bc-regularizer';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** Loss value and the gradients w.r.t. both inputs, read back as plain arrays. */
async function valueAndGrads(actions: tf.Tensor3D, reference: tf.Tensor3D, slice: BcRegularizerSlice) {
  const [loss, metric, gradActions, gradReference] = tf.tidy(() => {
    const result = bcRegularizerLoss(actions, reference, slice);
    const grads = tf.grads((a: tf.Tensor, r: tf.Tensor) => bcRegularizerLoss(a, r, slice).loss)([actions, reference]);
    return [result.loss, result.metrics['losses/bc'], ...grads];
  });
  try {
    return {
      loss: (await loss.data())[0],
      metric: (await metric.data())[0],
      gradActions: Array.from(await gradActions.data()),
      gradReference: Array.from(await gradReference.data()),
    };
  } finally {
    tf.dispose([loss, metric, gradActions, gradReference, actions, reference]);
  }
}

describe('bcRegularizerLoss', () => {
  it('is the mean squared distance over the executed positions and env dims (hand case), with gradient 2·(a − a_ref)/n through a only', async () => {
    // B = 2, H = 2, A = 2; the env runs Ta = 1 position and reads Ae = 2 dims. Position 1 holds 9s that must not count.
    //   b0: a = (1, 2), a_ref = (0, 0) → differences 1, 2
    //   b1: a = (0, −1), a_ref = (1, 1) → differences −1, −2
    //   mean of 1, 4, 1, 4 over n = 4 elements = 10/4 = 2.5
    //   d/da = 2·diff/4 = diff/2: b0 (0.5, 1), b1 (−0.5, −1); 0 at position 1 and for a_ref.
    const actions = tf.tensor3d([[[1, 2], [9, 9]], [[0, -1], [9, 9]]]);
    const reference = tf.tensor3d([[[0, 0], [0, 0]], [[1, 1], [0, 0]]]);
    const result = await valueAndGrads(actions, reference, { nActionSteps: 1, envActionDim: 2 });
    expect(result.loss).toBeCloseTo(2.5, 6);
    expect(result.metric).toBeCloseTo(2.5, 6);
    expect(result.gradActions).toEqual([0.5, 1, 0, 0, -0.5, -1, 0, 0]);
    expect(result.gradReference).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('matches a float64 reference of the value and gradient on random chunks', async () => {
    const rng = createRng(17);
    const [batch, horizon, actionDim] = [3, 4, 3];
    const slice = { nActionSteps: 2, envActionDim: 2 };
    const a = Float64Array.from({ length: batch * horizon * actionDim }, () => rng.normal());
    const r = Float64Array.from({ length: batch * horizon * actionDim }, () => rng.normal());
    const count = batch * slice.nActionSteps * slice.envActionDim;
    let sum = 0;
    const expectedGrad = new Float64Array(a.length);
    for (let row = 0; row < batch; row++) {
      for (let position = 0; position < slice.nActionSteps; position++) {
        for (let dim = 0; dim < slice.envActionDim; dim++) {
          const index = (row * horizon + position) * actionDim + dim;
          sum += (a[index] - r[index]) ** 2;
          expectedGrad[index] = (2 * (a[index] - r[index])) / count;
        }
      }
    }
    const result = await valueAndGrads(tf.tensor3d(Float32Array.from(a), [batch, horizon, actionDim]), tf.tensor3d(Float32Array.from(r), [batch, horizon, actionDim]), slice);
    expect(result.loss).toBeCloseTo(sum / count, 5);
    result.gradActions.forEach((value, index) => expect(value).toBeCloseTo(expectedGrad[index], 6));
    expect(result.gradReference.every((value) => value === 0)).toBe(true);
  });

  it('rejects mismatched chunks and a slice larger than the chunk', () => {
    const a = tf.zeros([2, 3, 2]);
    const b = tf.zeros([2, 3, 1]);
    try {
      expect(() => bcRegularizerLoss(a, b, { nActionSteps: 1, envActionDim: 1 })).toThrow('actions and referenceActions must both be [B, H, A], got [2, 3, 2] and [2, 3, 1]');
      expect(() => bcRegularizerLoss(a, a, { nActionSteps: 4, envActionDim: 1 })).toThrow('the executed slice [4, 1] must fit the chunk [H, A] = [3, 2]');
    } finally {
      tf.dispose([a, b]);
    }
  });
});
