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

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Medians over rounds that each time `body` and then the square matmul rate back to back. */
export interface PairedTiming {
  /** Median seconds per `body` call. */
  seconds: number;
  /** Median matmul rate, GFLOP/s. */
  peak: number;
  /** Median over rounds of `flops` per `body` call as a share of that round's matmul rate. */
  share(flops: number): number;
}

/**
 * `body` timed against the matmul rate in `rounds` alternating pairs: on a shared machine both
 * rates drift with the neighbours' load, so a share is taken within each round, not across the run.
 */
export async function timeAgainstPeak(rounds: number, repeats: number, body: () => Promise<void>, peakSize = 1024): Promise<PairedTiming> {
  const seconds: number[] = [];
  const peaks: number[] = [];
  await body();
  for (let round = 0; round < rounds; round++) {
    seconds.push(await timeIt(repeats, body, 0));
    peaks.push(await matmulPeak(peakSize, 2));
  }
  const perRound = seconds.map((value, round) => value * peaks[round]);
  return { seconds: median(seconds), peak: median(peaks), share: (flops) => flops / 1e9 / median(perRound) };
}
