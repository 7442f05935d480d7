/**
 * Just enough of the WebAssembly binary format to write small SIMD kernels as bytes: LEB128
 * integers, the instructions they use, sections and names. Modules built from these import the
 * wasm backend's memory (env.memory) so they work on tensors where tfjs keeps them.
 */

export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;

/** Unsigned LEB128. */
function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** Signed LEB128 for i32.const. */
function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

const simd = (opcode: number) => [0xfd, ...uleb(opcode)];

/** Instructions by name; memory accesses take an offset and assume no alignment. */
export const op = {
  block: [0x02, 0x40], loop: [0x03, 0x40], end: [0x0b], br: (depth: number) => [0x0c, ...uleb(depth)], brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)], set: (local: number) => [0x21, ...uleb(local)],
  i32: (value: number) => [0x41, ...sleb(value)], add: [0x6a], sub: [0x6b], mul: [0x6c], eqz: [0x45],
  f32Load: [0x2a, 0x00, 0x00], f32Zero: [0x43, 0, 0, 0, 0],
  v128Load: (offset: number) => [...simd(0), 0x00, ...uleb(offset)],
  v128Store: (offset: number) => [...simd(11), 0x00, ...uleb(offset)],
  splat: simd(19), f32x4Sqrt: simd(227), f32x4Add: simd(228), f32x4Sub: simd(229), f32x4Mul: simd(230), f32x4Div: simd(231),
};

/** local += step (a constant, or instructions that leave an i32). */
export const advance = (local: number, step: number | number[]) => [...op.get(local), ...(typeof step === 'number' ? op.i32(step) : step), ...op.add, ...op.set(local)];
export const decrement = (local: number) => [...op.get(local), ...op.i32(1), ...op.sub, ...op.set(local)];

/** A counted loop: `body` runs while local `counter` is non-zero; the body decrements it. */
export const whileNonZero = (counter: number, body: number[]) => [...op.block, ...op.loop, ...op.get(counter), ...op.eqz, ...op.brIf(1), ...body, ...op.br(0), ...op.end, ...op.end];

/** A function body: `locals` as [count, type] runs, then the code. */
export function functionBody(locals: [number, number][], code: number[]): number[] {
  const declared = [...uleb(locals.length), ...locals.flatMap(([count, type]) => [...uleb(count), type])];
  const body = [...declared, ...code, ...op.end];
  return [...uleb(body.length), ...body];
}

function section(id: number, contents: number[]): number[] {
  return [id, ...uleb(contents.length), ...contents];
}

function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
}

/** A module of functions that each take `params` and return nothing, exported by name, importing env.memory. */
export function moduleBytes(functions: { name: string; params: number[]; body: number[] }[]): Uint8Array<ArrayBuffer> {
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [...uleb(functions.length), ...functions.flatMap((fn) => [0x60, ...uleb(fn.params.length), ...fn.params, 0])]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]),
    ...section(3, [...uleb(functions.length), ...functions.flatMap((_, index) => uleb(index))]),
    ...section(7, [...uleb(functions.length), ...functions.flatMap((fn, index) => [...name(fn.name), 0x00, ...uleb(index)])]),
    ...section(10, [...uleb(functions.length), ...functions.flatMap((fn) => fn.body)]),
  ];
  return Uint8Array.from(bytes);
}

/** The instance's exports over `memory`, or undefined where WebAssembly SIMD or the import is refused. */
export function instantiate(bytes: Uint8Array<ArrayBuffer>, memory: WebAssembly.Memory): WebAssembly.Exports | undefined {
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
  } catch {
    return undefined;
  }
}
