import { advance, decrement, F32, functionBody, I32, instantiate, moduleBytes, op, V128, whileNonZero } from './wasm-bytes';

/**
 * One Adam step (DESIGN.md §4; NamedAdam's formula) over four floats at a time, as a WebAssembly
 * SIMD loop over the wasm backend's memory: with β's, bias corrections c₁ = 1 − β1ᵗ, c₂ = 1 − β2ᵗ,
 *   m' = m·β1 + g·(1 − β1),  v' = v·β2 + (g·g)·(1 − β2),
 *   u = (m'/c₁) / (sqrt(v'/c₂) + ε),  θ' = θ − u·lr  [ − θ·(lr·wd) for AdamW ].
 * Every operation is the float32 operation, in the order, that NamedAdam's tensor ops run, so the
 * results are the same bits: what the tfjs kernels spend is one pass and one op per tensor and
 * step, not the arithmetic.
 */

/** Scalars in the order the functions take them after the eight offsets and counts. */
export interface AdamScalars {
  beta1: number;
  oneMinusBeta1: number;
  beta2: number;
  oneMinusBeta2: number;
  correction1: number;
  correction2: number;
  epsilon: number;
  learningRate: number;
  /** lr·wd; used by adamw only. */
  decay: number;
}

const SCALAR_ORDER: (keyof AdamScalars)[] = ['beta1', 'oneMinusBeta1', 'beta2', 'oneMinusBeta2', 'correction1', 'correction2', 'epsilon', 'learningRate', 'decay'];

/**
 * (θ, g, m, v, θ', m', v', groups, …scalars): `groups` runs of four floats from byte offsets θ, g, m,
 * v, written to θ', m', v' (which may be the inputs' own offsets).
 */
function adamBody(weightDecay: boolean): number[] {
  const [theta, grad, m, v, thetaOut, mOut, vOut, groups] = [0, 1, 2, 3, 4, 5, 6, 7];
  const scalar = (index: number) => 8 + index;
  const splat = (index: number) => 17 + index;
  const [g, newM, newV, update] = [26, 27, 28, 29];
  const mul = (a: number[], b: number[]) => [...a, ...b, ...op.f32x4Mul];
  const add = (a: number[], b: number[]) => [...a, ...b, ...op.f32x4Add];
  const load = (pointer: number) => [...op.get(pointer), ...op.v128Load(0)];
  const get = op.get;
  const step = [
    ...load(grad), ...op.set(g),
    ...add(mul(load(m), get(splat(0))), mul(get(g), get(splat(1)))), ...op.set(newM),
    ...add(mul(load(v), get(splat(2))), mul(mul(get(g), get(g)), get(splat(3)))), ...op.set(newV),
    ...get(newM), ...get(splat(4)), ...op.f32x4Div,
    ...get(newV), ...get(splat(5)), ...op.f32x4Div, ...op.f32x4Sqrt, ...get(splat(6)), ...op.f32x4Add,
    ...op.f32x4Div, ...op.set(update),
    ...get(thetaOut), ...load(theta), ...mul(get(update), get(splat(7))), ...op.f32x4Sub,
    ...(weightDecay ? [...mul(load(theta), get(splat(8))), ...op.f32x4Sub] : []),
    ...op.v128Store(0),
    ...get(mOut), ...get(newM), ...op.v128Store(0),
    ...get(vOut), ...get(newV), ...op.v128Store(0),
    ...[theta, grad, m, v, thetaOut, mOut, vOut].flatMap((pointer) => advance(pointer, 16)),
    ...decrement(groups),
  ];
  const splats = SCALAR_ORDER.flatMap((_, index) => [...get(scalar(index)), ...op.splat, ...op.set(splat(index))]);
  return functionBody([[13, V128]], [...splats, ...whileNonZero(groups, step)]);
}

const PARAMS = [...Array(8).fill(I32), ...Array(SCALAR_ORDER.length).fill(F32)];

export function adamModuleBytes(): Uint8Array<ArrayBuffer> {
  return moduleBytes([{ name: 'adam', params: PARAMS, body: adamBody(false) }, { name: 'adamw', params: PARAMS, body: adamBody(true) }]);
}

/** Byte offsets of θ, g, m, v in and θ', m', v' out. */
export interface AdamOffsets {
  theta: number;
  grad: number;
  m: number;
  v: number;
  thetaOut: number;
  mOut: number;
  vOut: number;
}

/** One Adam step over `count` floats at `offsets` in `memory`. */
export type AdamRunner = (offsets: AdamOffsets, count: number, scalars: AdamScalars, weightDecay: boolean) => void;

/**
 * The same step in JavaScript on `heap` for floats [from, from + count): Math.fround after every
 * operation gives the float32 result of each (+, −, ×, ÷ and sqrt of float32 values, rounded once
 * from float64, are the float32 operations).
 */
export function adamInJavaScript(heap: Float32Array, offsets: AdamOffsets, from: number, count: number, scalars: AdamScalars, weightDecay: boolean): void {
  const f = Math.fround;
  const s = Object.fromEntries(SCALAR_ORDER.map((key) => [key, f(scalars[key])])) as unknown as AdamScalars;
  const { theta, grad, m, v, thetaOut, mOut, vOut } = offsets;
  for (let index = from; index < from + count; index++) {
    const at = (base: number) => base / 4 + index;
    const gradient = heap[at(grad)];
    const before = heap[at(theta)];
    const newM = f(f(heap[at(m)] * s.beta1) + f(gradient * s.oneMinusBeta1));
    const newV = f(f(heap[at(v)] * s.beta2) + f(f(gradient * gradient) * s.oneMinusBeta2));
    const update = f(f(newM / s.correction1) / f(f(Math.sqrt(f(newV / s.correction2))) + s.epsilon));
    let next = f(before - f(update * s.learningRate));
    if (weightDecay) next = f(next - f(before * s.decay));
    heap[at(thetaOut)] = next;
    heap[at(mOut)] = newM;
    heap[at(vOut)] = newV;
  }
}

/**
 * A runner over `memory`: the SIMD loop over whole runs of four floats and JavaScript for the rest,
 * or JavaScript alone where WebAssembly SIMD or the import is refused.
 */
export function adamRunner(memory: WebAssembly.Memory): AdamRunner {
  const exports = instantiate(adamModuleBytes(), memory);
  const [adam, adamw] = exports ? ([exports.adam, exports.adamw] as ((...args: number[]) => void)[]) : [];
  return (offsets, count, scalars, weightDecay) => {
    const groups = exports ? count >> 2 : 0;
    if (groups > 0) {
      const { theta, grad, m, v, thetaOut, mOut, vOut } = offsets;
      (weightDecay ? adamw : adam)(theta, grad, m, v, thetaOut, mOut, vOut, groups, ...SCALAR_ORDER.map((key) => scalars[key]));
    }
    if (count > groups * 4) adamInJavaScript(new Float32Array(memory.buffer), offsets, groups * 4, count - groups * 4, scalars, weightDecay);
  };
}
