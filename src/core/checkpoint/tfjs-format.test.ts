import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { decodeFlowtune, encodeFlowtune } from './flowtune-file';
import { exportTfjs, importTfjs } from './tfjs-format';
import { bitsOf, float32Bytes, sampleContents, sampleMetadata, shapesOf, uint16Bytes, checkpointError } from './fixtures/test-fixtures';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** A hand-written model.json around the given manifest weights. */
function modelJsonWith(weights: object[], paths = ['weights.bin'], metadata: object | null = sampleMetadata()): string {
  return JSON.stringify({ format: 'flowtune-weights', generatedBy: 'test', weightsManifest: [{ paths, weights }], userDefinedMetadata: metadata === null ? {} : { flowtune: metadata } });
}

describe('tfjs export and import', () => {
  it('round-trips to the same result as the .flowtune path, bit for bit', () => {
    const contents = sampleContents();
    const { modelJson, weightsBin } = exportTfjs(contents);
    const options = { expectedShapes: shapesOf(contents.tensors), expectedOptimizerShapes: shapesOf(contents.optimizer!.tensors), expectedTask: 'pick-cube' };
    const imported = importTfjs(modelJson, weightsBin, options);
    const viaFlowtune = decodeFlowtune(encodeFlowtune(contents), options);
    expect(imported.metadata).toEqual(viaFlowtune.metadata);
    expect(imported.optimizer!.state).toEqual(viaFlowtune.optimizer!.state);
    for (const [name, tensor] of viaFlowtune.tensors) {
      expect(imported.tensors.get(name)!.shape).toEqual(tensor.shape);
      expect(bitsOf(imported.tensors.get(name)!.data)).toEqual(bitsOf(tensor.data));
    }
    for (const [name, tensor] of viaFlowtune.optimizer!.tensors) expect(bitsOf(imported.optimizer!.tensors.get(name)!.data)).toEqual(bitsOf(tensor.data));
  });

  it('writes a model.json that tfjs itself decodes', async () => {
    const contents = sampleContents(false);
    const { modelJson, weightsBin } = exportTfjs(contents, { weightsFileName: 'policy.bin' });
    const parsed = JSON.parse(modelJson);
    expect(parsed.format).toBe('flowtune-weights');
    expect(parsed.generatedBy).toBe('Flowtune Studio');
    expect(parsed.userDefinedMetadata.flowtune).toEqual(contents.metadata);
    expect(parsed.weightsManifest[0].paths).toEqual(['policy.bin']);
    expect(parsed.weightsManifest[0].weights[2]).toEqual({ name: 'velocity.blocks.0.dense.kernel', shape: [32, 8], dtype: 'float32' });
    const buffer = weightsBin.slice().buffer;
    const decoded = tf.io.decodeWeights(buffer, parsed.weightsManifest[0].weights);
    const bias = await decoded['obs_encoder.dense.bias'].data();
    expect(bitsOf(bias as Float32Array)).toEqual(bitsOf(contents.tensors.get('obs_encoder.dense.bias')!.data));
    tf.dispose(Object.values(decoded));
  });

  it('reads float16-quantized weights and weights split over several files', () => {
    // 0x3C00 = 1, 0xC000 = −2 as float16; then float32 0.5 in a second file.
    const modelJson = modelJsonWith([
      { name: 'half', shape: [2], dtype: 'float32', quantization: { dtype: 'float16' } },
      { name: 'full', shape: [1], dtype: 'float32' },
    ], ['group1-shard1of2.bin', 'group1-shard2of2.bin']);
    const files = new Map([['group1-shard1of2.bin', uint16Bytes(0x3c00, 0xc000)], ['group1-shard2of2.bin', float32Bytes(0.5)]]);
    const decoded = importTfjs(modelJson, files, { expectedShapes: new Map([['half', [2]], ['full', [1]]]) });
    expect(Array.from(decoded.tensors.get('half')!.data)).toEqual([1, -2]);
    expect(Array.from(decoded.tensors.get('full')!.data)).toEqual([0.5]);
    expect(checkpointError(() => importTfjs(modelJson, new Map([['group1-shard1of2.bin', uint16Bytes(0x3c00, 0xc000)]]), { expectedShapes: null })).message)
      .toBe("model.json names weight file 'group1-shard2of2.bin' but it was not provided");
    expect(checkpointError(() => importTfjs(modelJson, float32Bytes(1, 2), { expectedShapes: null })).message)
      .toBe('model.json names 2 weight files (group1-shard1of2.bin, group1-shard2of2.bin); pass them all by name');
  });

  it('rejects bad imports with the same sentences as the .flowtune reader', () => {
    const { modelJson, weightsBin } = exportTfjs(sampleContents(false));
    const expectedShapes = shapesOf(sampleContents().tensors);
    const wrong = new Map(expectedShapes).set('velocity.blocks.0.dense.kernel', [33, 8]);
    expect(checkpointError(() => importTfjs(modelJson, weightsBin, { expectedShapes: wrong })).message)
      .toBe('tensor velocity.blocks.0.dense.kernel has shape [32,8], expected [33,8]');
    expect(checkpointError(() => importTfjs(modelJson, weightsBin, { expectedShapes, expectedTask: 'lift' })).message)
      .toBe("checkpoint is for task 'pick-cube' but the run is 'lift'");
    expect(checkpointError(() => importTfjs(modelJson, weightsBin.subarray(0, weightsBin.byteLength - 4), { expectedShapes })).message)
      .toBe(`the file is cut short (${weightsBin.byteLength - 4} of ${weightsBin.byteLength} bytes): tensor value_head.scale has data_offsets [${weightsBin.byteLength - 4},${weightsBin.byteLength}] beyond the ${weightsBin.byteLength - 4}-byte data section`);
    const longer = new Uint8Array(weightsBin.byteLength + 8);
    longer.set(weightsBin);
    expect(checkpointError(() => importTfjs(modelJson, longer, { expectedShapes })).message).toBe('checkpoint data section has 8 bytes that belong to no tensor');
    expect(checkpointError(() => importTfjs(modelJsonWith([{ name: 'a', shape: [2], dtype: 'float32' }]), float32Bytes(1, NaN), { expectedShapes: null })).message)
      .toBe('tensor a has a non-finite value (NaN) at element 1');
    expect(checkpointError(() => importTfjs(modelJsonWith([{ name: 'a', shape: [1], dtype: 'int32' }]), float32Bytes(1), { expectedShapes: null })).message)
      .toBe("tensor a has tfjs dtype 'int32'; allowed are float32 and float32 quantized to float16");
    expect(checkpointError(() => importTfjs(modelJsonWith([{ name: 'a', shape: [1], dtype: 'float32' }], undefined, null), float32Bytes(1), { expectedShapes: null })).message)
      .toBe('checkpoint has no userDefinedMetadata.flowtune entry, so it is not a Flowtune checkpoint');
    expect(checkpointError(() => importTfjs('{"weightsManifest": 3}', float32Bytes(1), { expectedShapes: null })).message)
      .toBe('model.json weightsManifest is malformed (it needs groups of paths and weights with name, shape and dtype)');
    expect(checkpointError(() => importTfjs('<html>', float32Bytes(1), { expectedShapes: null })).message).toBe('model.json is not valid JSON');
    expect(checkpointError(() => importTfjs(modelJson, weightsBin, { expectedShapes, maxHeaderBytes: 100 })).message)
      .toBe(`model.json is ${new TextEncoder().encode(modelJson).byteLength} bytes, above the cap of 100 bytes`);
  });
});
