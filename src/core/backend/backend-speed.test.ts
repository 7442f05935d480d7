import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig } from '../config';
import { backendSpeed, chooseFastest, formatRate, speedsSummary, workloadOf, type BackendTiming, type IterationWorkload } from './backend-speed';

// 16 envs × 32 decisions = 512 samples; minibatch 64 → 8 per epoch, 4 epochs → 32 gradient steps.
const workload: IterationWorkload = { decisionBatch: 16, decisionsPerIteration: 32, minibatchSize: 64, gradStepsPerIteration: 32, samplesPerIteration: 512 };

describe('workloadOf', () => {
  it('reads the iteration sizes from the config', () => {
    const config = applyOverrides(defaultConfig(), ['num_envs=16', 'env.steps_per_iteration=32', 'ppo.minibatch_size=64', 'ppo.epochs=4']);
    expect(workloadOf(config)).toEqual(workload);
  });

  it('caps the minibatch at the rollout and counts at least one gradient step', () => {
    const config = applyOverrides(defaultConfig(), ['num_envs=2', 'env.steps_per_iteration=4', 'ppo.minibatch_size=64', 'ppo.epochs=1']);
    expect(workloadOf(config)).toMatchObject({ minibatchSize: 8, gradStepsPerIteration: 1, samplesPerIteration: 8 });
  });
});

describe('backendSpeed', () => {
  it('estimates one iteration from a decision and a gradient step', () => {
    // 32 × 0.01 s + 32 × 0.05 s = 0.32 + 1.6 = 1.92 s; 512 / 1.92 = 266.67 samples/s.
    const speed = backendSpeed({ backend: 'wasm', decisionSeconds: 0.01, gradStepSeconds: 0.05 }, workload);
    expect(speed.iterationSeconds).toBeCloseTo(1.92, 12);
    expect(speed.samplesPerSecond).toBeCloseTo(512 / 1.92, 9);
    // 16 envs / 0.01 s = 1600 decisions/s; 64 / 0.05 s = 1280 gradient samples/s.
    expect(speed.decisionsPerSecond).toBeCloseTo(1600, 9);
    expect(speed.gradSamplesPerSecond).toBeCloseTo(1280, 9);
  });
});

describe('chooseFastest', () => {
  it('picks the shorter iteration, not the faster sampler', () => {
    // webgpu samples 10× faster but steps 3× slower: 32×0.001 + 32×0.15 = 4.832 s against wasm's 32×0.01 + 32×0.05 = 1.92 s.
    const timings: BackendTiming[] = [
      { backend: 'webgpu', decisionSeconds: 0.001, gradStepSeconds: 0.15 },
      { backend: 'wasm', decisionSeconds: 0.01, gradStepSeconds: 0.05 },
    ];
    const verdict = chooseFastest(timings, workload, ['webgpu', 'wasm', 'cpu']);
    expect(verdict.backend).toBe('wasm');
    expect(verdict.speeds.map((speed) => speed.backend)).toEqual(['wasm', 'webgpu']);
    expect(verdict.speeds[1].iterationSeconds).toBeCloseTo(4.832, 12);
  });

  it('picks webgpu when its iteration is shorter', () => {
    const verdict = chooseFastest([
      { backend: 'wasm', decisionSeconds: 0.01, gradStepSeconds: 0.05 },
      { backend: 'webgpu', decisionSeconds: 0.002, gradStepSeconds: 0.01 },
    ], workload, ['wasm', 'webgpu']);
    expect(verdict.backend).toBe('webgpu');
  });

  it('breaks an exact tie by preference', () => {
    const same = { decisionSeconds: 0.01, gradStepSeconds: 0.02 };
    expect(chooseFastest([{ backend: 'wasm', ...same }, { backend: 'webgpu', ...same }], workload, ['webgpu', 'wasm']).backend).toBe('webgpu');
    expect(chooseFastest([{ backend: 'webgpu', ...same }, { backend: 'wasm', ...same }], workload, ['wasm', 'webgpu']).backend).toBe('wasm');
  });

  it('leaves out timings that are not positive and finite', () => {
    const verdict = chooseFastest([
      { backend: 'webgpu', decisionSeconds: 0, gradStepSeconds: 0.001 },
      { backend: 'cpu', decisionSeconds: Number.NaN, gradStepSeconds: 0.001 },
      { backend: 'wasm', decisionSeconds: 0.5, gradStepSeconds: 0.5 },
    ], workload, ['webgpu', 'wasm', 'cpu']);
    expect(verdict.backend).toBe('wasm');
    expect(verdict.speeds).toHaveLength(1);
  });

  it('never lets a partial timing win, and shows its figure as an upper bound', () => {
    // webgpu's decisions alone: 32 × 0.1 s = 3.2 s, more than wasm's whole 1.92 s; its gradient step was not timed.
    const verdict = chooseFastest([
      { backend: 'webgpu', decisionSeconds: 0.1, gradStepSeconds: 0, partial: true },
      { backend: 'wasm', decisionSeconds: 0.01, gradStepSeconds: 0.05 },
    ], workload, ['webgpu', 'wasm']);
    expect(verdict.backend).toBe('wasm');
    expect(verdict.speeds[1]).toMatchObject({ backend: 'webgpu', partial: true, iterationSeconds: 3.2, samplesPerSecond: 160 });
    expect(speedsSummary(verdict.speeds)).toBe('wasm 267 samples/s · webgpu <160');
    // A partial timing with a gradient time is not one; partial timings alone choose nothing.
    expect(chooseFastest([{ backend: 'wasm', decisionSeconds: 0.01, gradStepSeconds: 0.5, partial: true }, { backend: 'cpu', decisionSeconds: 1, gradStepSeconds: 1 }], workload, ['wasm', 'cpu']).backend).toBe('cpu');
    expect(() => chooseFastest([{ backend: 'webgpu', decisionSeconds: 0.1, gradStepSeconds: 0, partial: true }], workload, ['webgpu'])).toThrow(/no backend has a usable timing/);
  });

  it('says which timings it got when none is usable', () => {
    expect(() => chooseFastest([{ backend: 'wasm', decisionSeconds: Infinity, gradStepSeconds: 1 }], workload, ['wasm']))
      .toThrow('no backend has a usable timing (positive, finite seconds per decision and per gradient step); got wasm (Infinity, 1)');
    expect(() => chooseFastest([], workload, ['wasm'])).toThrow(/got none$/);
  });

  it('ranks fresh random timings by their iteration time', () => {
    for (let trial = 0; trial < 20; trial++) {
      const timings: BackendTiming[] = (['webgpu', 'wasm', 'cpu'] as const).map((backend) => ({ backend, decisionSeconds: 1e-3 + Math.random(), gradStepSeconds: 1e-3 + Math.random() }));
      const verdict = chooseFastest(timings, workload, ['webgpu', 'wasm', 'cpu']);
      const plain = timings.map((timing) => ({ backend: timing.backend, seconds: 32 * timing.decisionSeconds + 32 * timing.gradStepSeconds })).sort((a, b) => a.seconds - b.seconds);
      expect(verdict.backend).toBe(plain[0].backend);
      for (let index = 1; index < verdict.speeds.length; index++) expect(verdict.speeds[index].samplesPerSecond).toBeLessThanOrEqual(verdict.speeds[index - 1].samplesPerSecond);
    }
  });
});

describe('formatting', () => {
  it('writes rates with k and M', () => {
    expect(formatRate(7140)).toBe('7.1k');
    expect(formatRate(2_300_000)).toBe('2.3M');
    expect(formatRate(12.34)).toBe('12');
    expect(formatRate(3.21)).toBe('3.2');
    expect(formatRate(Number.NaN)).toBe('–');
  });

  it('writes the figures fastest first with the unit once', () => {
    expect(speedsSummary([{ backend: 'wasm', samplesPerSecond: 7100 }, { backend: 'webgpu', samplesPerSecond: 2300 }])).toBe('wasm 7.1k samples/s · webgpu 2.3k');
  });
});
