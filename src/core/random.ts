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
  let a = mixSeed(seed >>> 0);
  let b = mixSeed(a ^ 0x1b873593);
  let c = mixSeed(b ^ 0xcc9e2d51);
  let d = 1;
  let spareNormal: number | undefined;
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let warmup = 0; warmup < 12; warmup++) next32();
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
  };
  return rng;
}
