import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readOnnxPolicy } from '../core/checkpoint/onnx/policy-metadata';
import { decodeFlowtune, encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { decodePolicyCheckpoint, decodeTfjsPolicyCheckpoint } from '../core/checkpoint/fixtures/decode-bytes';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-export-'));
const REACH = 'public/checkpoints/reach-bc.flowtune';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One CLI run in a real process, as a user would start it. */
function cli(script: 'export.ts' | 'eval.ts', ...args: string[]) {
  const result = spawnSync(tsx, [path.join(here, script), ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, FLOWTUNE_DEBUG: '' } });
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

describe('npm run export', () => {
  it("format=onnx writes a graph whose metadata names the checkpoint's task and shapes", () => {
    const out = path.join(dir, 'reach.onnx');
    const run = cli('export.ts', `ckpt=${REACH}`, 'format=onnx', `out=${out}`);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*reach\.onnx \(\d+ bytes, opset 17\): obs \[batch, 2, 29\] and x0 \[batch, 8, 4\] → actions \[batch, 4, 4\] for reach \(ee_delta_pos\), 4 Euler steps$/);
    expect(readOnnxPolicy(new Uint8Array(readFileSync(out))).spec).toMatchObject({ task: 'reach', nObsSteps: 2, obsFrameSize: 29, denoiseSteps: 4, nActionSteps: 4 });
  }, 120_000);

  it('policy.obs_clip=c builds the observation clamp into the graph and its metadata, and eval of the .onnx runs with it', () => {
    const out = path.join(dir, 'reach-clipped.onnx');
    const run = cli('export.ts', `ckpt=${REACH}`, 'format=onnx', `out=${out}`, 'policy.obs_clip=3');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const { spec, metadata } = readOnnxPolicy(new Uint8Array(readFileSync(out)));
    expect(spec.obsClip).toBe(3);
    expect(metadata.normalizer.obs).toMatchObject({ clip: 3 });
    const refused = cli('eval.ts', 'task=reach', `ckpt=${out}`, 'episodes=1', 'policy.obs_clip=1');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe('error: policy.obs_clip=1 contradicts the ONNX graph, which has policy.obs_clip=3 built in; drop the override or export again from the .flowtune');
  }, 120_000);

  it('format=tfjs writes the weights manifest and its .bin, which read back as the same checkpoint', () => {
    const out = path.join(dir, 'reach-model.json');
    const run = cli('export.ts', `ckpt=${REACH}`, 'format=tfjs', `out=${out}`);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/: weights for Flowtune, .* not a runnable tfjs graph\)$/);
    const fromTfjs = decodeTfjsPolicyCheckpoint(readFileSync(out, 'utf8'), new Uint8Array(readFileSync(path.join(dir, 'reach-model.bin'))));
    const original = decodePolicyCheckpoint(new Uint8Array(readFileSync(path.join(repoRoot, REACH))));
    expect(fromTfjs.metadata).toEqual(original.metadata);
    expect([...fromTfjs.tensors.keys()]).toEqual([...original.tensors.keys()]);
    for (const [name, tensor] of original.tensors) expect(fromTfjs.tensors.get(name)?.data).toEqual(tensor.data);
  }, 120_000);

  it('a corrupt .flowtune exits 1 with one error line and writes nothing', () => {
    const corrupt = path.join(dir, 'corrupt.flowtune');
    const bytes = new Uint8Array(readFileSync(path.join(repoRoot, REACH)));
    // A header length far past the end of the file.
    new DataView(bytes.buffer).setUint32(0, bytes.byteLength * 2, true);
    writeFileSync(corrupt, bytes);
    const out = path.join(dir, 'corrupt.onnx');
    const run = cli('export.ts', `ckpt=${corrupt}`, 'format=onnx', `out=${out}`);
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: /);
    expect(run.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  }, 120_000);

  it('a checkpoint whose stored settings cannot run exits 1 (the file is at fault, not the command line)', () => {
    const decoded = decodeFlowtune(new Uint8Array(readFileSync(path.join(repoRoot, REACH))), { expectedShapes: null });
    const metadata = { ...decoded.metadata, architecture: { ...decoded.metadata.architecture, n_action_steps: 9 } };
    const unusable = path.join(dir, 'nine-of-eight.flowtune');
    writeFileSync(unusable, encodeFlowtune({ ...decoded, metadata }));
    const run = cli('export.ts', `ckpt=${unusable}`, `out=${path.join(dir, 'nine-of-eight.onnx')}`);
    expect(run.stderr).toBe("error: the checkpoint's stored settings are invalid: policy.n_action_steps (9) must be ≤ policy.horizon (8); lower n_action_steps or raise horizon");
    expect(run.status).toBe(1);
  }, 120_000);

  it('an output name that does not fit the format exits 2 naming out', () => {
    const run = cli('export.ts', `ckpt=${REACH}`, 'format=onnx', `out=${path.join(dir, 'reach.json')}`);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: out must end in \.onnx for format=onnx \(got '.*reach\.json'\)$/);
  });
});

describe('npm run eval with ckpt=FILE.onnx', () => {
  it('refuses a policy exported for another task, and a file that is not one, in one line each (exit 1)', () => {
    const exported = path.join(dir, 'reach-for-eval.onnx');
    expect(cli('export.ts', `ckpt=${REACH}`, `out=${exported}`).status).toBe(0);
    const mismatch = cli('eval.ts', 'task=lift', `ckpt=${exported}`, 'episodes=1');
    expect(mismatch.stderr).toBe("error: the ONNX policy is for task 'reach' but the run is 'lift'");
    expect(mismatch.status).toBe(1);

    const garbage = path.join(dir, 'garbage.onnx');
    writeFileSync(garbage, 'not a model');
    const broken = cli('eval.ts', 'task=reach', `ckpt=${garbage}`, 'episodes=1');
    expect(broken.status).toBe(1);
    expect(broken.stderr.split('\n')).toHaveLength(1);
    expect(broken.stderr).toMatch(/^error: the file is not a readable ONNX model|^error: the ONNX model has no 'flowtune' metadata_props entry/);
  }, 180_000);
});

describe('npm run eval backend=', () => {
  it('runs the chains on the named backend and says so; the result matches wasm\'s to float rounding', () => {
    const wasm = cli('eval.ts', 'task=reach', `ckpt=${REACH}`, 'episodes=2');
    const cpu = cli('eval.ts', 'task=reach', `ckpt=${REACH}`, 'episodes=2', 'backend=cpu');
    expect(wasm.status, wasm.stderr).toBe(0);
    expect(cpu.status, cpu.stderr).toBe(0);
    expect(wasm.stderr).not.toContain('backend:');
    expect(cpu.stderr.split('\n')[0]).toBe('backend: cpu (backend=cpu)');
    const [fromWasm, fromCpu] = [wasm, cpu].map((run) => JSON.parse(run.stdout.split('\n').at(-1)!) as { mean_return: number; success_rate: number });
    expect(fromCpu.success_rate).toBe(fromWasm.success_rate);
    expect(Math.abs(fromCpu.mean_return - fromWasm.mean_return)).toBeLessThan(1e-3 * Math.max(1, Math.abs(fromWasm.mean_return)));
  }, 240_000);
});
