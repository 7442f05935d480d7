/**
 * Seeded pseudo-random numbers owned by the project, so that sampling noise,
 * env resets and minibatch shuffles are identical on every tfjs backend and in
 * every runtime (Node, browser, workers).
 */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard normal N(0, 1). */
  normal(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Fills `out` with N(0, 1) samples and returns it. */
  fillNormal(out: Float32Array): Float32Array;
  /** A new independent stream derived from this one. */
  fork(): Rng;
  /** The generator's exact position, for a resumed run to continue the same stream. */
  state(): RngState;
}

/** sfc32's four words and the Box-Muller spare; plain numbers, so it survives JSON. */
export interface RngState {
  words: [number, number, number, number];
  spareNormal: number | null;
}

/** Mixes a 32-bit seed (splitmix32 finalizer) so nearby seeds give unrelated streams. */
function mixSeed(seed: number): number {
  let z = (seed + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Creates a sfc32 generator seeded from a 32-bit integer. */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new RangeError(`rng seed must be a finite number, got ${seed}`);
  const a = mixSeed(seed >>> 0);
  const b = mixSeed(a ^ 0x1b873593);
  const c = mixSeed(b ^ 0xcc9e2d51);
  const rng = sfc32([a, b, c, 1], null);
  for (let warmup = 0; warmup < 12; warmup++) rng.uniform();
  return rng;
}

/** A generator that continues exactly from a saved state. */
export function restoreRng(state: RngState): Rng {
  const { words, spareNormal } = state;
  if (!Array.isArray(words) || words.length !== 4 || !words.every((word) => Number.isInteger(word))) {
    throw new RangeError(`rng state must hold four 32-bit integers, got ${JSON.stringify(words)}`);
  }
  if (spareNormal !== null && !Number.isFinite(spareNormal)) throw new RangeError(`rng state spareNormal must be finite or null, got ${spareNormal}`);
  return sfc32([words[0], words[1], words[2], words[3]], spareNormal);
}

function sfc32(words: [number, number, number, number], spare: number | null): Rng {
  let [a, b, c, d] = words;
  let spareNormal: number | undefined = spare ?? undefined;
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  const rng: Rng = {
    uniform: () => next32() / 4294967296,
    normal: () => {
      if (spareNormal !== undefined) {
        const value = spareNormal;
        spareNormal = undefined;
        return value;
      }
      // Box-Muller; u1 in (0, 1] keeps log finite.
      const u1 = 1 - rng.uniform();
      const u2 = rng.uniform();
      const radius = Math.sqrt(-2 * Math.log(u1));
      spareNormal = radius * Math.sin(2 * Math.PI * u2);
      return radius * Math.cos(2 * Math.PI * u2);
    },
    int: (n: number) => Math.floor(rng.uniform() * n),
    fillNormal: (out: Float32Array) => {
      for (let i = 0; i < out.length; i++) out[i] = rng.normal();
      return out;
    },
    fork: () => createRng(next32()),
    state: () => ({ words: [a, b, c, d], spareNormal: spareNormal ?? null }),
  };
  return rng;
}
