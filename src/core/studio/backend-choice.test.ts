import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import type { RunConfig } from '../config/run-config';
import type { BackendName } from '../backend/choose-backend';
import type { BackendReport, TrainerEvent } from '../../protocol/trainer-api';
import { BackendChoice, type BackendSession } from './backend-choice';

const report = (backend: BackendName, extra: Partial<BackendReport> = {}): BackendReport =>
  ({ backend, softwareAdapter: false, failures: [], choice: 'preference', speeds: [], ...extra });

/** A choice over fake backends: starts are recorded, and wasm times ten times faster than webgpu. */
function choiceOver(config: RunConfig, options: { failing?: BackendName; start?: BackendReport } = {}) {
  const session: BackendSession & { hasRun: boolean } = { hasRun: false, phase: 'idle', config, models: {} };
  const started: BackendName[] = [];
  const events: TrainerEvent[] = [];
  let switches = 0;
  const choice = new BackendChoice(options.start ?? report('webgpu'), {
    session: () => session,
    start: async (backend) => {
      if (backend === options.failing) throw new Error(`${backend} is gone`);
      started.push(backend);
    },
    candidates: async () => ['webgpu', 'wasm'],
    stageHoldsTensors: () => false,
    emit: (event) => events.push(event),
    switched: () => switches++,
    stubbed: { webgpu: { decisionSeconds: 0.01, gradStepSeconds: 0.02 }, wasm: { decisionSeconds: 0.001, gradStepSeconds: 0.002 } },
  });
  return { choice, session, started, events, switches: () => switches };
}

const reachConfig = (): RunConfig => ({ ...defaultConfig(), task: 'reach' });

describe('the studio\'s BackendChoice', () => {
  it('times the next run\'s model on each candidate before it opens, keeps the fastest and says so', async () => {
    const { choice, started, events, switches } = choiceOver(reachConfig());
    await choice.beforeRun();
    expect(started).toEqual(['webgpu', 'wasm', 'wasm']);
    expect(choice.report).toMatchObject({ backend: 'wasm', choice: 'measured', timing: false, stubbed: true });
    expect(choice.report.timedAt).toMatch(/^\d+ envs, minibatch \d+$/);
    expect(choice.report.speeds.map((speed) => speed.backend)).toEqual(['wasm', 'webgpu']);
    expect(switches()).toBe(1);
    expect(events.filter((event) => event.type === 'backend').map((event) => event.type === 'backend' && event.report.timing)).toEqual([true, false]);
    // Nothing changed: the next run is not timed again.
    await choice.beforeRun();
    expect(started).toHaveLength(3);
  });

  it('does not time a family that is not timed, nor while a run holds tensors', async () => {
    const gaussian = reachConfig();
    gaussian.policy = { ...gaussian.policy, kind: 'gaussian' };
    const untimed = choiceOver(gaussian);
    await untimed.choice.beforeRun();
    expect(untimed.started).toEqual([]);
    const busy = choiceOver(reachConfig());
    busy.session.hasRun = true;
    await busy.choice.beforeRun();
    expect(busy.started).toEqual([]);
  });

  it('resumes a saved run on its own backend untimed, and times instead when that one does not start', async () => {
    const resumed = choiceOver(reachConfig());
    await resumed.choice.beforeRun('wasm');
    expect(resumed.started).toEqual(['wasm']);
    expect(resumed.choice.report).toMatchObject({ backend: 'wasm', choice: 'resumed' });
    const failing = choiceOver(reachConfig(), { failing: 'cpu' });
    await failing.choice.beforeRun('cpu');
    expect(failing.events).toContainEqual(expect.objectContaining({ type: 'error', name: 'BackendError', message: expect.stringMatching(/^the run was saved on cpu, which does not start here \(cpu is gone\)/) }));
    expect(failing.choice.report.choice).toBe('measured');
  });

  it('keeps a backend forced with ?backend= and times nothing', async () => {
    const forced = choiceOver(reachConfig(), { start: report('webgpu', { forced: 'webgpu', choice: 'forced' }) });
    await forced.choice.beforeRun('wasm');
    expect(forced.started).toEqual([]);
    expect(forced.choice.report.backend).toBe('webgpu');
  });
});
