import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { probeSample } from './probe-sample';

describe('probeSample', () => {
  it('samples a finite batch of the probe\'s shape, the same for the same seed, and frees its tensors', async () => {
    await tf.setBackend('cpu');
    const before = tf.memory().numTensors;
    const first = await probeSample(3, 'cpu');
    expect(first).toMatchObject({ shape: [2, 4, 4], allFinite: true, backend: 'cpu' });
    expect(first.actions).toHaveLength(2 * 4 * 4);
    expect((await probeSample(3, 'cpu')).actions).toEqual(first.actions);
    expect(tf.memory().numTensors).toBe(before);
  });
});
