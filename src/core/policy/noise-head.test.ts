import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { FlowPolicy } from './flow-policy';
import { boundedStd, validateNoiseBounds } from './noise-head';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('noise head bounds (DESIGN.md §3)', () => {
  test('hand values: r = 0 gives the geometric mean of the bounds, r → ±∞ the bounds', async () => {
    // σ_min = 0.1, σ_max = 0.4: lo = log 0.01 = −4.6051702, hi = log 0.16 = −1.8325815
    // r = 0: logvar = (lo + hi)/2 = −3.2188758, std = exp(−1.6094379) = 0.2 = sqrt(0.1·0.4)
    const std = tf.tidy(() => boundedStd(tf.tensor1d([0, -50, 50]), { stdMin: 0.1, stdMax: 0.4 }));
    const data = await std.data();
    expect(data[0]).toBeCloseTo(0.2, 6);
    expect(data[1]).toBeCloseTo(0.1, 6);
    expect(data[2]).toBeCloseTo(0.4, 6);
    std.dispose();
  });

  test('fresh random raw values against a float64 reference', async () => {
    const rng = createRng(2);
    for (let trial = 0; trial < 5; trial++) {
      const stdMin = 0.01 + 0.2 * rng.uniform();
      const stdMax = stdMin * (1 + 3 * rng.uniform());
      const raw = Float32Array.from({ length: 32 }, () => 2 * rng.normal());
      const std = tf.tidy(() => boundedStd(tf.tensor1d(raw), { stdMin, stdMax }));
      const data = await std.data();
      const lo = Math.log(stdMin * stdMin);
      const hi = Math.log(stdMax * stdMax);
      raw.forEach((r, offset) => {
        const logvar = lo + ((hi - lo) * (Math.tanh(r) + 1)) / 2;
        expect(data[offset]).toBeCloseTo(Math.exp(logvar / 2), 5);
      });
      std.dispose();
    }
  });

  test('bounds change between calls with no new variables and no leaked tensors', async () => {
    const policy = new FlowPolicy({ obsDim: 3, horizon: 2, actionDim: 2, velocityHidden: [8], encoderHidden: [8], valueHidden: [4], noiseHidden: [8] }, 1);
    const features = tf.tidy(() => policy.encode({ state: tf.ones([2, 3]) }));
    const t = tf.fill([2], 0.5) as tf.Tensor1D;
    const read = async (stdMin: number, stdMax: number) => {
      const std = policy.noiseStd(features, t, { stdMin, stdMax });
      const data = Array.from(await std.data());
      std.dispose();
      return data;
    };
    await read(0.1, 0.2);
    const variablesBefore = tf.memory().numTensors;
    const narrow = await read(0.1, 0.2);
    const wide = await read(0.5, 1.0);
    expect(tf.memory().numTensors).toBe(variablesBefore);
    expect(policy.namedVariables().size).toBe(policy.shapes.size);
    for (const value of narrow) expect(value).toBeGreaterThanOrEqual(0.1 - 1e-6);
    for (const value of narrow) expect(value).toBeLessThanOrEqual(0.2 + 1e-6);
    for (const value of wide) expect(value).toBeGreaterThanOrEqual(0.5 - 1e-6);
    // Same raw output, so the unit position inside the log-range is the same under both bounds.
    narrow.forEach((value, offset) => {
      const unitNarrow = (Math.log(value) - Math.log(0.1)) / (Math.log(0.2) - Math.log(0.1));
      const unitWide = (Math.log(wide[offset]) - Math.log(0.5)) / (Math.log(1.0) - Math.log(0.5));
      expect(unitWide).toBeCloseTo(unitNarrow, 4);
    });
    tf.dispose([features, t]);
    policy.dispose();
  });

  test('bad bounds throw a ConfigError naming the field', () => {
    expect(() => validateNoiseBounds({ stdMin: 0, stdMax: 1 })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'noise.std_min' }));
    expect(() => validateNoiseBounds({ stdMin: 0.2, stdMax: 0.1 })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'noise.std_max' }));
    expect(() => validateNoiseBounds({ stdMin: 0.2, stdMax: NaN })).toThrow(/noise.std_max must be finite/);
  });
});
