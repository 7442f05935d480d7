import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { odeActions } from './ode-actions';
import { sampleActions } from './sampler';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('odeActions', () => {
  it('gives the eval sampler\'s action chunk from the same x_0, bit for bit', async () => {
    const policy = new FlowPolicy({ obsDim: 3, horizon: 4, actionDim: 2, nObsSteps: 2, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [8], noiseHidden: [8] }, 4);
    const batch = 5;
    const obsData = createRng(1).fillNormal(new Float32Array(batch * 2 * 3));
    const state = tf.tensor2d(obsData, [batch, 6]);
    try {
      // With a denoised clamp (0.3 bites on x_0 ~ N(0, I)) both clamp every step alike.
      for (const denoisedClamp of [0, 0.3]) for (const steps of [1, 3, 5]) {
        // The sampler draws x_0 first, so a fresh stream with the same seed gives the same x_0.
        const sample = await sampleActions(policy, { state }, { method: 'ode', mode: 'eval', steps, level: 0, denoisedClamp }, createRng(steps));
        const x0 = tf.tensor3d(createRng(steps).fillNormal(new Float32Array(batch * 4 * 2)), [batch, 4, 2]);
        const actions = odeActions(policy, { state }, x0, steps, denoisedClamp);
        expect(Array.from(await actions.data()), `K = ${steps}, clamp ${denoisedClamp}`).toEqual(Array.from(sample.actions));
        if (denoisedClamp > 0) {
          const free = odeActions(policy, { state }, x0, steps);
          expect(Array.from(await free.data())).not.toEqual(Array.from(sample.actions));
          free.dispose();
        }
        tf.dispose([x0, actions]);
      }
    } finally {
      state.dispose();
      policy.dispose();
    }
  });

  it('rejects an x_0 of the wrong shape and leaves no tensor behind', () => {
    const policy = new FlowPolicy({ obsDim: 3, horizon: 4, actionDim: 2, velocityHidden: [8], encoderHidden: [8], valueHidden: [8], noiseHidden: [8] });
    const state = tf.zeros([2, 3]);
    const x0 = tf.zeros([2, 4, 3]);
    try {
      const before = tf.memory().numTensors;
      expect(() => odeActions(policy, { state }, x0, 2)).toThrow('x0 must be [B, H, A] = [2, 4, 2], got [2, 4, 3]');
      const good = tf.zeros([2, 4, 2]);
      tf.tidy(() => odeActions(policy, { state }, good, 2)).dispose();
      good.dispose();
      expect(tf.memory().numTensors).toBe(before);
    } finally {
      tf.dispose([state, x0]);
      policy.dispose();
    }
  });
});
