import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { applyOverrides } from './overrides';
import { noiseAt } from './noise-at';

/** level 0.5 → level_min 0.1 and σ_max 0.16 → σ_min 0.08 over 1000 env steps. */
const decaying = (decay: string, extra: string[] = []) =>
  applyOverrides(defaultConfig(), [`noise.decay=${decay}`, 'noise.decay_steps=1000', 'noise.level=0.5', 'noise.level_min=0.1', 'noise.std_max=0.16', 'noise.std_min=0.08', ...extra]);

function expectNoise(actual: { level: number; stdMin: number; stdMax: number }, level: number, stdMax: number): void {
  expect(actual.level).toBeCloseTo(level, 12);
  expect(actual.stdMax).toBeCloseTo(stdMax, 12);
  expect(actual.stdMin).toBe(0.08);
}

describe('noiseAt', () => {
  it('constant keeps the start values at any step', () => {
    for (const step of [0, 999, 10_000]) expectNoise(noiseAt(decaying('constant'), step), 0.5, 0.16);
  });

  it('linear: start·(1 − p) + end·p, then held at the end', () => {
    const config = decaying('linear');
    expectNoise(noiseAt(config, 0), 0.5, 0.16);
    // p = 0.25: level 0.5·0.75 + 0.1·0.25 = 0.4; σ_max 0.16·0.75 + 0.08·0.25 = 0.14
    expectNoise(noiseAt(config, 250), 0.4, 0.14);
    expectNoise(noiseAt(config, 1000), 0.1, 0.08);
    expectNoise(noiseAt(config, 50_000), 0.1, 0.08);
  });

  it('exponential: end + (start − end)·exp(−3p)', () => {
    const config = decaying('exponential');
    // p = 0.5: exp(−1.5) = 0.22313016; level 0.1 + 0.4·0.22313016 = 0.18925206;
    // σ_max 0.08 + 0.08·0.22313016 = 0.09785041
    const e = Math.exp(-1.5);
    expectNoise(noiseAt(config, 500), 0.1 + 0.4 * e, 0.08 + 0.08 * e);
    // p = 1 leaves exp(−3) ≈ 5% of the gap: level 0.1 + 0.4·0.04978707 = 0.11991483
    expectNoise(noiseAt(config, 1000), 0.1 + 0.4 * Math.exp(-3), 0.08 + 0.08 * Math.exp(-3));
    expectNoise(noiseAt(config, 4000), 0.1 + 0.4 * Math.exp(-3), 0.08 + 0.08 * Math.exp(-3));
  });

  it('cosine: held for hold_steps, then end + (start − end)·(1 + cos πp)/2', () => {
    const config = decaying('cosine', ['noise.hold_steps=200']);
    expectNoise(noiseAt(config, 199), 0.5, 0.16);
    // step 700: p = (700 − 200)/1000 = 0.5, cos(π/2) = 0 → halfway: level 0.3, σ_max 0.12
    expectNoise(noiseAt(config, 700), 0.3, 0.12);
    // step 450: p = 0.25, (1 + cos(π/4))/2 = 0.85355339 → level 0.1 + 0.4·0.85355339 = 0.44142136
    const weight = (1 + Math.cos(Math.PI / 4)) / 2;
    expectNoise(noiseAt(config, 450), 0.1 + 0.4 * weight, 0.08 + 0.08 * weight);
    expectNoise(noiseAt(config, 1200), 0.1, 0.08);
  });
});
