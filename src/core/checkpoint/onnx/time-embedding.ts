import { embeddingFrequencies } from '../../policy/time-embedding';

/** The scale policy/time-embedding.ts applies to t before the sinusoids. */
const TIME_SCALE = 1000;

/**
 * The sinusoidal embedding of one time value, [sin(1000·t·f_j) | cos(1000·t·f_j)], as the tfjs
 * policy computes it: t, 1000·t and each angle rounded to float32 (the tensor ops' precision),
 * then sin and cos of that float32 angle. Baked into the graph, since every chain of a batch
 * shares t_k and d. Rounding the angle matters: at 1000·t ≈ 1000 one float32 step is 6e-5 rad.
 */
export function timeEmbeddingValues(t: number, dim: number): Float32Array {
  const scaled = Math.fround(Math.fround(t) * TIME_SCALE);
  const angles = embeddingFrequencies(dim).map((frequency) => Math.fround(scaled * Math.fround(frequency)));
  return Float32Array.from([...angles.map(Math.sin), ...angles.map(Math.cos)]);
}

/** [emb(t) | emb(d)] (d only with the shortcut input), the conditioning of one denoising step. */
export function stepEmbeddingValues(t: number, stepSize: number, dim: number, shortcut: boolean): Float32Array {
  const time = timeEmbeddingValues(t, dim);
  if (!shortcut) return time;
  const both = new Float32Array(2 * dim);
  both.set(time);
  both.set(timeEmbeddingValues(stepSize, dim), dim);
  return both;
}
