import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { combinePpoLosses } from './ppo-loss-total';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('combinePpoLosses', () => {
  it('adds the weighted value loss and subtracts the weighted entropy', async () => {
    // 0.4 + 0.5·2 − 0.01·3 = 1.37
    const total = combinePpoLosses({ policy: tf.scalar(0.4), value: tf.scalar(2), entropy: tf.scalar(3) }, { valueCoef: 0.5, entropyCoef: 0.01 });
    expect((await total.data())[0]).toBeCloseTo(1.37, 6);
    // Critic warm-up: value only, 0.5·2 = 1.
    const warmup = combinePpoLosses({ value: tf.scalar(2) }, { valueCoef: 0.5, entropyCoef: 0.01 });
    expect((await warmup.data())[0]).toBeCloseTo(1, 6);
  });

  it('adds the weighted BC regularizer when given', async () => {
    // 0.4 + 0.5·2 − 0.01·3 + 0.25·2 = 1.87; without bcCoef the term weighs 0.
    const total = combinePpoLosses(
      { policy: tf.scalar(0.4), value: tf.scalar(2), entropy: tf.scalar(3), bc: tf.scalar(2) }, { valueCoef: 0.5, entropyCoef: 0.01, bcCoef: 0.25 });
    expect((await total.data())[0]).toBeCloseTo(1.87, 6);
    const unweighted = combinePpoLosses({ policy: tf.scalar(0.4), bc: tf.scalar(2) }, { valueCoef: 0.5, entropyCoef: 0.01 });
    expect((await unweighted.data())[0]).toBeCloseTo(0.4, 6);
    expect(() => combinePpoLosses({}, { valueCoef: 1, entropyCoef: 0, bcCoef: -1 })).toThrow('ppo.bc_coef must be a non-negative number, got -1');
  });

  it('rejects a negative weight', () => {
    expect(() => combinePpoLosses({}, { valueCoef: -1, entropyCoef: 0 })).toThrow('ppo.value_coef must be a non-negative number, got -1');
    expect(() => combinePpoLosses({}, { valueCoef: 1, entropyCoef: NaN })).toThrow('ppo.entropy_coef must be a non-negative number, got NaN');
  });
});
