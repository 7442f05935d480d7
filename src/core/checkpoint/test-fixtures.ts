import { expect } from 'vitest';
import { createRng } from '../random';
import type { OptimizerState, TensorData } from './checkpoint-types';
import type { FlowtuneContents } from './checkpoint-writer';
import { FLOWTUNE_FORMAT_VERSION, type FlowtuneMetadata } from './metadata';

/** Shared by the checkpoint tests: a small, realistic metadata block. */
export function sampleMetadata(task = 'pick-cube'): FlowtuneMetadata {
  return {
    format_version: FLOWTUNE_FORMAT_VERSION,
    task,
    shape_meta: { obs: { state: { shape: [12] } }, action: { shape: [4] } },
    architecture: { velocity: 'mlp', hidden: [32, 32], horizon: 4, n_action_steps: 2, denoise_steps: 4 },
    normalizer: { action: { min: [-1, -1, -1, 0], max: [1, 1, 1, 1] }, state: { min: new Array(12).fill(-2), max: new Array(12).fill(2) } },
    noise: { method: 'sde', level: 0.5, std_min: 0.08, std_max: 0.16 },
    stage: 'ppo',
    training: { step: 1200, iteration: 30, env_steps: 96000 },
    eval: { success_rate: 0.75, mean_return: 12.5, mean_length: 41 },
  };
}

function randomTensor(seed: number, shape: number[]): TensorData {
  const rng = createRng(seed);
  const count = shape.reduce((product, size) => product * size, 1);
  return { shape, data: Float32Array.from({ length: count }, () => rng.normal()) };
}

/** Model tensors, with awkward values (−0, a subnormal, the float32 extremes), a scalar and an empty tensor. */
export function sampleTensors(): Map<string, TensorData> {
  const kernel = randomTensor(1, [12, 32]);
  kernel.data[0] = -0;
  kernel.data[1] = 1.4e-45;
  kernel.data[2] = 3.4028234663852886e38;
  kernel.data[3] = -1.1754943508222875e-38;
  return new Map<string, TensorData>([
    ['obs_encoder.dense.kernel', kernel],
    ['obs_encoder.dense.bias', randomTensor(2, [32])],
    ['velocity.blocks.0.dense.kernel', randomTensor(3, [32, 8])],
    ['value_head.scale', { shape: [], data: Float32Array.of(0.5) }],
    ['noise_head.unused', { shape: [0, 3], data: new Float32Array(0) }],
  ]);
}

/** Adam moments for two of the tensors and per-optimizer counters. */
export function sampleOptimizer(): OptimizerState {
  return {
    state: { actor: { kind: 'adam', step: 1200, beta1: 0.9, beta2: 0.999 }, critic: { kind: 'adamw', step: 1200, weight_decay: 0.01 } },
    tensors: new Map<string, TensorData>([
      ['actor.obs_encoder.dense.kernel.m', randomTensor(4, [12, 32])],
      ['actor.obs_encoder.dense.kernel.v', { shape: [12, 32], data: randomTensor(5, [12, 32]).data.map(Math.abs) }],
    ]),
  };
}

export function sampleContents(withOptimizer = true): FlowtuneContents {
  const contents: FlowtuneContents = { tensors: sampleTensors(), metadata: sampleMetadata() };
  if (withOptimizer) contents.optimizer = sampleOptimizer();
  return contents;
}

/** name → shape of a tensor map, as a model would list what it needs. */
export function shapesOf(tensors: ReadonlyMap<string, TensorData>): Map<string, number[]> {
  return new Map([...tensors].map(([name, tensor]) => [name, tensor.shape]));
}

/**
 * A safetensors file from a literal header object and data bytes, written
 * independently of encodeFlowtune so the reader is tested against hand-made files.
 */
export function buildSafetensors(header: Record<string, unknown>, data: Uint8Array): Uint8Array {
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + headerBytes.byteLength + data.byteLength);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.byteLength), true);
  out.set(headerBytes, 8);
  out.set(data, 8 + headerBytes.byteLength);
  return out;
}

/** `__metadata__` with valid Flowtune metadata, for hand-made files. */
export function metadataEntry(metadata: object = sampleMetadata()): { __metadata__: Record<string, string> } {
  return { __metadata__: { flowtune: JSON.stringify(metadata) } };
}

/** Little-endian bytes of float32 values. */
export function float32Bytes(...values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return bytes;
}

/** Little-endian bytes of 16-bit patterns. */
export function uint16Bytes(...patterns: number[]): Uint8Array {
  const bytes = new Uint8Array(patterns.length * 2);
  const view = new DataView(bytes.buffer);
  patterns.forEach((pattern, index) => view.setUint16(index * 2, pattern, true));
  return bytes;
}

/** Bit patterns of float32 values, to compare tensors bit for bit (−0 and NaN payloads included). */
export function bitsOf(values: Float32Array): number[] {
  return Array.from(new Uint32Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)));
}

/** Runs `action` and returns the CheckpointError it throws (failing the test on anything else). */
export function checkpointError(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    expect((error as Error).name).toBe('CheckpointError');
    return error as Error;
  }
  throw new Error('expected a CheckpointError, but nothing was thrown');
}
