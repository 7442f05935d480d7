import { describe, expect, it } from 'vitest';
import type { IterationWorkload } from './backend-speed';
import { chooseBySpeed, type BackendTrialPorts } from './choose-by-speed';
import type { BackendName } from './choose-backend';
import type { PolicySpeed } from './policy-speed';

const workload: IterationWorkload = { decisionBatch: 4, decisionsPerIteration: 2, minibatchSize: 4, gradStepsPerIteration: 2, samplesPerIteration: 8 };

/** Ports over a table of timings; a backend missing from it fails to start. */
function fakePorts(table: Partial<Record<BackendName, PolicySpeed | Error>>) {
  const started: BackendName[] = [];
  let current: BackendName | undefined;
  const ports: BackendTrialPorts = {
    async start(backend) {
      const entry = table[backend];
      if (!entry) throw new Error(`${backend} is not available`);
      started.push(backend);
      current = backend;
    },
    async measure(backend) {
      expect(current).toBe(backend);
      const entry = table[backend]!;
      if (entry instanceof Error) throw entry;
      return entry;
    },
  };
  return { ports, started, current: () => current };
}

describe('chooseBySpeed', () => {
  it('times every candidate and leaves the fastest in use', async () => {
    const fake = fakePorts({ webgpu: { decisionSeconds: 0.01, gradStepSeconds: 0.01 }, wasm: { decisionSeconds: 0.001, gradStepSeconds: 0.002 } });
    const choice = await chooseBySpeed(['webgpu', 'wasm'], ['cpu'], workload, fake.ports);
    expect(choice.backend).toBe('wasm');
    expect(fake.current()).toBe('wasm');
    expect(fake.started).toEqual(['webgpu', 'wasm', 'wasm']);
    // 2 × 0.001 + 2 × 0.002 = 0.006 s → 8 / 0.006 = 1333 samples/s; webgpu 0.04 s → 200.
    expect(choice.speeds.map((speed) => Math.round(speed.samplesPerSecond))).toEqual([1333, 200]);
    expect(choice.failures).toEqual([]);
  });

  it('records a backend that does not start or fails while timed, and chooses among the rest', async () => {
    const fake = fakePorts({ webgpu: new Error('kernel Foo is not registered'), wasm: { decisionSeconds: 0.1, gradStepSeconds: 0.1 } });
    const choice = await chooseBySpeed(['webgpu', 'wasm'], ['cpu'], workload, fake.ports);
    expect(choice.backend).toBe('wasm');
    expect(choice.failures).toEqual([{ backend: 'webgpu', reason: 'kernel Foo is not registered' }]);
    expect(fake.started).not.toContain('cpu');
  });

  it('tells each later candidate the fastest whole iteration so far, so a slow one may stop early', async () => {
    const bounds: number[] = [];
    const ports: BackendTrialPorts = {
      start: async () => undefined,
      measure: async (backend, boundSeconds) => {
        bounds.push(boundSeconds);
        // wasm: 2 × 0.001 + 2 × 0.002 = 0.006 s. webgpu's decisions alone, 2 × 0.01 = 0.02 s, outlast it.
        return backend === 'wasm' ? { decisionSeconds: 0.001, gradStepSeconds: 0.002 } : { decisionSeconds: 0.01, gradStepSeconds: 0, partial: true };
      },
    };
    const choice = await chooseBySpeed(['wasm', 'webgpu'], ['cpu'], workload, ports);
    expect(bounds[0]).toBe(Infinity);
    expect(bounds[1]).toBeCloseTo(0.006, 12);
    expect(choice.backend).toBe('wasm');
    expect(choice.speeds.map((speed) => [speed.backend, speed.partial ?? false])).toEqual([['wasm', false], ['webgpu', true]]);
  });

  it('tries the last resort only when no candidate can be timed', async () => {
    const fake = fakePorts({ cpu: { decisionSeconds: 1, gradStepSeconds: 1 } });
    const choice = await chooseBySpeed(['webgpu', 'wasm'], ['cpu'], workload, fake.ports);
    expect(choice.backend).toBe('cpu');
    expect(choice.failures.map((failure) => failure.backend)).toEqual(['webgpu', 'wasm']);
  });

  it('names every failure when nothing can be timed', async () => {
    const fake = fakePorts({});
    await expect(chooseBySpeed(['wasm'], ['cpu'], workload, fake.ports))
      .rejects.toThrow('no tfjs backend could be timed: wasm: wasm is not available; cpu: cpu is not available');
  });
});
