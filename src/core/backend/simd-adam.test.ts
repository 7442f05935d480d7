import { describe, expect, test } from 'vitest';
import { createRng } from '../random';
import { adamInJavaScript, adamRunner, type AdamScalars } from './simd-adam';

const SCALARS: AdamScalars = {
  beta1: 0.9, oneMinusBeta1: 1 - 0.9, beta2: 0.999, oneMinusBeta2: 1 - 0.999, correction1: 1 - 0.9 ** 3, correction2: 1 - 0.999 ** 3,
  epsilon: 1e-8, learningRate: 3e-4, decay: 3e-4 * 0.01,
};

describe('Adam step over wasm memory', () => {
  test.each([false, true])('the SIMD loop and the JavaScript path give the same bits (weight decay %s)', (weightDecay) => {
    // 37 floats: nine runs of four and a tail of one. θ, g, m, v at 0, 256, 512, 768 bytes; outputs after.
    const memory = new WebAssembly.Memory({ initial: 1 });
    const heap = new Float32Array(memory.buffer);
    const rng = createRng(5);
    for (const base of [0, 64, 128, 192]) heap.set(rng.fillNormal(new Float32Array(37)), base);
    for (let index = 192; index < 192 + 37; index++) heap[index] = Math.abs(heap[index]);
    const offsets = (out: number) => ({ theta: 0, grad: 256, m: 512, v: 768, thetaOut: out, mOut: out + 256, vOut: out + 512 });
    adamRunner(memory)(offsets(1024), 37, SCALARS, weightDecay);
    adamInJavaScript(heap, offsets(2048), 0, 37, SCALARS, weightDecay);
    const [simd, script] = [Array.from(heap.subarray(256, 256 + 192)), Array.from(heap.subarray(512, 512 + 192))];
    expect(simd).toEqual(script);
    // θ moved by about lr per element (m̂/√v̂ is of order one).
    expect(Math.abs(heap[256] - heap[0])).toBeGreaterThan(1e-5);
  });
});
