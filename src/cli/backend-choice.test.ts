import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { tinyConfig } from '../core/rl/fixtures/test-support';
import { BACKEND_ARG, chooseCliBackend } from './backend-choice';
import { describeCliError, parseCliArgs } from './cli-args';
import { probeDawnAdapter } from './dawn-adapter';
import type { SpeedPlan } from '../core/backend/policy-speed';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-backend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ONE_CALL: SpeedPlan = { decisions: { warmup: 0, repeats: 1, budgetMs: 0 }, gradSteps: { warmup: 0, repeats: 1, budgetMs: 0 } };

/** Why Dawn starts no adapter on this machine; undefined where one starts (a GPU machine). */
function noAdapterReason(): string | undefined {
  try {
    probeDawnAdapter();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
const dawnRefusal = noAdapterReason();

describe('backend= on the command line', () => {
  it('accepts auto, wasm, cpu and webgpu, with auto by default', () => {
    const spec = { backend: BACKEND_ARG };
    expect(parseCliArgs([], spec).backend).toBe('auto');
    for (const value of ['auto', 'wasm', 'cpu', 'webgpu']) expect(parseCliArgs([`backend=${value}`], spec).backend).toBe(value);
  });

  it('refuses another value with exit status 2 and one line listing the allowed values', () => {
    let thrown: unknown;
    try {
      parseCliArgs(['backend=gpu'], { backend: BACKEND_ARG });
    } catch (error) {
      thrown = error;
    }
    expect(describeCliError(thrown)).toEqual({ exitCode: 2, text: "error: backend must be one of auto, wasm, cpu, webgpu (got 'gpu')", stream: 'stderr' });
  });
});

describe('chooseCliBackend', () => {
  it('starts a named backend and says it was named', async () => {
    const choice = await chooseCliBackend('cpu', { config: tinyConfig() });
    expect(choice.backend).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(choice.line).toBe('backend: cpu (backend=cpu)');
  });

  it.runIf(dawnRefusal !== undefined)('backend=webgpu without an adapter is one error sentence with Dawn\'s reason, exit status 1', async () => {
    const error = await chooseCliBackend('webgpu', { config: tinyConfig() }).then(() => undefined, (reason: unknown) => reason);
    expect((error as Error).name).toBe('BackendError');
    const failure = describeCliError(error);
    expect(failure.exitCode).toBe(1);
    expect(failure.text).toMatch(/^error: no WebGPU adapter started: \S.*$/);
    expect(failure.text).not.toContain('\n');
    // Dawn's source locations are left out of the reason.
    expect(failure.text).not.toMatch(/ at \S+\(/);
  });

  it.runIf(dawnRefusal !== undefined)('auto falls back to the backends that start and says in one line why webgpu did not', async () => {
    const choice = await chooseCliBackend('auto', { config: tinyConfig() });
    expect(choice.backend).toBe('wasm');
    expect(choice.line).toBe(`backend: wasm (auto: the only backend that started; webgpu did not start: ${dawnRefusal})`);
    expect(choice.line).not.toContain('\n');
  });

  it('auto times every backend that starts and keeps the fastest by the rule', async () => {
    const choice = await chooseCliBackend('auto', { config: tinyConfig() }, { candidates: ['wasm', 'cpu'], plan: ONE_CALL });
    expect(choice.speeds.map((speed) => speed.backend).sort()).toEqual(['cpu', 'wasm']);
    expect(choice.backend).toBe(choice.speeds[0].backend);
    expect(tf.getBackend()).toBe(choice.backend);
    expect(choice.line).toMatch(new RegExp(`^backend: ${choice.backend} \\(auto, timed at 4 envs, minibatch 4: (wasm|cpu) \\S+ samples/s · (wasm|cpu) \\S+\\)$`));
  });

  it('auto does not time a Gaussian policy', async () => {
    expect(await chooseCliBackend('auto', undefined)).toEqual({ backend: 'wasm', line: 'backend: wasm (auto: only flow policies on state or point clouds are timed; others train on wasm)', speeds: [] });
  });
});

describe('npm run train -- backend=', () => {
  const train = (args: string[]) => spawnSync(tsx, [path.join(here, 'train.ts'), 'task=reach', 'preset=tiny', 'iterations=1', `out=${path.join(dir, 'run')}`, ...args], { cwd: repoRoot, encoding: 'utf8' });

  it('exits 2 on an unknown backend with one line', () => {
    const result = train(['backend=metal']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe("error: backend must be one of auto, wasm, cpu, webgpu (got 'metal')");
  });

  it.runIf(dawnRefusal !== undefined)('exits 1 on backend=webgpu without an adapter, with one error line and no stack trace', () => {
    const result = train(['backend=webgpu']);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n').filter((line) => !line.startsWith('starting from a fresh'));
    expect(lines).toEqual([`error: ${dawnRefusal}`]);
  });
});
