import { describe, expect, it } from 'vitest';
import { backendSpeed, type IterationWorkload } from '../../core/backend/backend-speed';
import type { BackendReport } from '../../protocol/trainer-api';
import { backendTitle, speedFigures } from './backend-text';

// 4 envs × 2 decisions = 8 samples, 2 gradient steps: wasm 2×0.001 + 2×0.002 = 6 ms → 1333/s; webgpu 2×0.01 + 2×0.01 = 40 ms → 200/s.
const workload: IterationWorkload = { decisionBatch: 4, decisionsPerIteration: 2, minibatchSize: 4, gradStepsPerIteration: 2, samplesPerIteration: 8 };
const report: BackendReport = {
  backend: 'wasm', softwareAdapter: true, failures: [{ backend: 'cpu', reason: 'not tried' }], choice: 'measured', timedAt: '4 envs, minibatch 4',
  speeds: [
    backendSpeed({ backend: 'wasm', decisionSeconds: 0.001, gradStepSeconds: 0.002 }, workload),
    backendSpeed({ backend: 'webgpu', decisionSeconds: 0.01, gradStepSeconds: 0.01 }, workload),
  ],
};

describe('backend badge text', () => {
  it('writes each figure, the unit once, and marks the one in use', () => {
    expect(speedFigures(report)).toEqual([
      { backend: 'wasm', text: 'wasm 1.3k samples/s', inUse: true },
      { backend: 'webgpu', text: 'webgpu 200', inUse: false },
    ]);
  });

  it('says how the backend was chosen, with the timings and the failures', () => {
    expect(backendTitle(report).split('\n')).toEqual([
      'chosen by timing the selected model at 4 envs, minibatch 4: the shorter PPO iteration wins (decisions for all envs + minibatch gradient steps); samples/s = decisions per iteration ÷ that time',
      'wasm: 1.0 ms per decision, 2.0 ms per gradient step',
      'webgpu: 10.0 ms per decision, 10.0 ms per gradient step',
      'cpu did not start: not tried',
    ]);
    expect(backendTitle({ ...report, choice: 'forced', forced: 'wasm', speeds: [], failures: [], timedAt: undefined })).toBe('forced with ?backend=wasm');
    expect(backendTitle({ ...report, choice: 'resumed', speeds: [], failures: [], timedAt: undefined }))
      .toBe('the backend the resumed run was saved on, so it continues bit-exact; the next new run is timed again');
  });

  it('writes a partial timing as an upper bound and says why its gradient step was not timed', () => {
    // webgpu's decisions alone: 2 × 0.01 s = 20 ms → 8 / 0.02 = 400 samples/s at most.
    const partial = { ...report, speeds: [report.speeds[0], backendSpeed({ backend: 'webgpu', decisionSeconds: 0.01, gradStepSeconds: 0, partial: true }, workload)] };
    expect(speedFigures(partial)[1]).toEqual({ backend: 'webgpu', text: 'webgpu <400', inUse: false });
    expect(backendTitle(partial)).toContain('webgpu: 10.0 ms per decision, gradient step not timed: its decisions alone took longer than the fastest whole iteration');
  });
});
