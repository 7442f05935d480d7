import * as tf from '@tensorflow/tfjs';

/** Mean seconds per call after `warmup` untimed calls (the first wasm calls compile and allocate). */
export async function timeIt(repeats: number, body: () => Promise<void>, warmup = 1): Promise<number> {
  for (let call = 0; call < warmup; call++) await body();
  const start = performance.now();
  for (let repeat = 0; repeat < repeats; repeat++) await body();
  return (performance.now() - start) / 1000 / repeats;
}

/** Square float32 matmul rate of the backend in use, GFLOP/s. */
export async function matmulPeak(size: number, repeats: number): Promise<number> {
  const a = tf.randomNormal([size, size]);
  const b = tf.randomNormal([size, size]);
  try {
    const seconds = await timeIt(repeats, async () => {
      const product = tf.matMul(a, b);
      await product.data();
      product.dispose();
    });
    return (2 * size ** 3) / seconds / 1e9;
  } finally {
    tf.dispose([a, b]);
  }
}
