/**
 * DPPO's own hopper checkpoint, exported as ONNX by `npm run export -- ckpt=state_3000.pt policy.ddim_steps=5`, given
 * DPPO's x_T as x0, returns DPPO's own DDIM chain's actions in onnxruntime (DESIGN.md §17, §18).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNormalization } from '../core/checkpoint/peers/peer-normalization';
import { exportCheckpointOnnx } from './export-checkpoint';
import { useNodeBackend } from './node-backend';

const PEER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/peers/dppo-hopper');
const out = mkdtempSync(path.join(tmpdir(), 'flowtune-dppo-onnx-'));

beforeAll(async () => {
  await useNodeBackend('wasm');
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.skipIf(!existsSync(PEER))("DPPO's checkpoint through our ONNX export", () => {
  it('returns its DDIM chain (5 steps, η = 0) from its x_T within 1e-4 in env units', async () => {
    const file = path.join(out, 'dppo.onnx');
    const summary = await exportCheckpointOnnx(path.join(PEER, 'state_3000.pt'), file, ['policy.ddim_steps=5']);
    expect(summary).toContain('5 DDIM steps');
    const expected = JSON.parse(readFileSync(path.join(PEER, 'expected.json'), 'utf8')) as { obs_raw: number[][]; x_T: number[][][]; ddim_chain: Array<{ x: number[][][] }> };
    const batch = expected.x_T.length;
    const session = await ort.InferenceSession.create(readFileSync(file));
    const result = await session.run({
      obs: new ort.Tensor('float32', Float32Array.from(expected.obs_raw.flat()), [batch, 1, 11]),
      x0: new ort.Tensor('float32', Float32Array.from(expected.x_T.flat(2)), [batch, 4, 3]),
    });
    const actions = result.actions.data as Float32Array;
    // DPPO's actions in env units: a = (x + 1)/2·(max − min) + min with normalization.npz's action range.
    const { action } = readNormalization({ name: 'normalization.npz', bytes: new Uint8Array(readFileSync(path.join(PEER, 'normalization.npz'))) }, 'state_3000.pt');
    const want = expected.ddim_chain.at(-1)!.x.flat(2).map((x, element) => ((x + 1) / 2) * (action.max[element % 3] - action.min[element % 3]) + action.min[element % 3]);
    const worst = Math.max(...want.map((value, index) => Math.abs(actions[index] - value)));
    expect(worst).toBeLessThan(1e-4);
    await session.release();
  });
});
