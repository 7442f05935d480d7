/**
 * The visual encoder's rows of `npm run bench -- policy` (DESIGN.md §19): images encoded per second as a rollout
 * encodes them (16 envs, one camera) and as an update does (a minibatch of 64, forward and backward), with the
 * achieved GFLOP/s against the matmul rate.
 */
import * as tf from '@tensorflow/tfjs';
import { imageFeatures } from '../../core/policy/image-encoder';
import { imageEncoderMacs, imageEncoderShapes, type ImageEncoderOptions } from '../../core/policy/image-encoder-options';
import { createRng } from '../../core/random';
import { useNodeBackend, type NodeBackend } from '../node-backend';
import type { BenchRow } from './bench-row';
import { timeAgainstPeak, timeIt } from './bench-timing';

const ROLLOUT_IMAGES = 16;
const UPDATE_IMAGES = 64;
/** The default encoder (policy.cnn_channels 16,32,32, policy.image_features 64) on one 64×64 rgb camera. */
const OPTIONS: ImageEncoderOptions = { cameras: ['camera'], size: 64, channels: 3, convChannels: [16, 32, 32], featureDim: 64 };

function note(batch: number, extra: string): string {
  return `cnn channels=[${OPTIONS.convChannels}] features=${OPTIONS.featureDim} ${OPTIONS.size}×${OPTIONS.size}×${OPTIONS.channels} cameras=1 batch=${batch}; ${extra}`;
}

export async function benchCnn(backend: NodeBackend): Promise<BenchRow[]> {
  await useNodeBackend(backend);
  const rng = createRng(5);
  const params = new Map(imageEncoderShapes(OPTIONS).map(([name, shape]) => {
    const size = shape.reduce((product, side) => product * side, 1);
    return [name, tf.variable(tf.tensor(rng.fillNormal(new Float32Array(size)).map((value) => 0.05 * value), shape))];
  }));
  const param = (name: string) => params.get(name)!;
  const pixels = (count: number) => tf.tensor(Float32Array.from({ length: count * OPTIONS.size * OPTIONS.size * OPTIONS.channels }, () => rng.int(256)), [count, 1, OPTIONS.size, OPTIONS.size, OPTIONS.channels]);
  const rollout = pixels(ROLLOUT_IMAGES);
  const update = pixels(UPDATE_IMAGES);
  try {
    const forwardSeconds = await timeIt(10, async () => {
      const features = imageFeatures(param, OPTIONS, rollout);
      await features.data();
      features.dispose();
    }, 2);
    const grad = await timeAgainstPeak(3, 3, async () => {
      const { value, grads } = tf.variableGrads(() => tf.sum(tf.square(imageFeatures(param, OPTIONS, update))) as tf.Scalar, [...params.values()]);
      await value.data();
      tf.dispose([value, ...Object.values(grads)]);
    });
    const macs = imageEncoderMacs(OPTIONS);
    // Forward: 2 FLOPs per multiply-add; backward adds the input and weight gradients, twice the forward again.
    const forwardFlops = 2 * macs * ROLLOUT_IMAGES;
    const gradFlops = 3 * 2 * macs * UPDATE_IMAGES;
    console.error(`  ${backend}: cnn ${(forwardSeconds * 1000).toFixed(0)} ms per ${ROLLOUT_IMAGES} images, forward+backward ${(grad.seconds * 1000).toFixed(0)} ms per ${UPDATE_IMAGES}`);
    return [
      { group: 'policy', metric: 'cnn_images_per_s', value: ROLLOUT_IMAGES / forwardSeconds, unit: 'images/s', backend, note: note(ROLLOUT_IMAGES, `forward incl. readback; ${(macs / 1e6).toFixed(2)} M multiply-adds per image`) },
      { group: 'policy', metric: 'cnn_achieved_gflops', value: forwardFlops / forwardSeconds / 1e9, unit: 'GFLOP/s', backend, note: note(ROLLOUT_IMAGES, 'forward') },
      { group: 'policy', metric: 'cnn_grad_images_per_s', value: UPDATE_IMAGES / grad.seconds, unit: 'images/s', backend, note: note(UPDATE_IMAGES, 'forward + backward') },
      { group: 'policy', metric: 'cnn_achieved_gflops_grad', value: gradFlops / grad.seconds / 1e9, unit: 'GFLOP/s', backend, note: note(UPDATE_IMAGES, `${(100 * grad.share(gradFlops)).toFixed(0)}% of the matmul rate (${grad.peak.toFixed(1)} GFLOP/s, median of 3)`) },
    ];
  } finally {
    tf.dispose([rollout, update, ...params.values()]);
  }
}
