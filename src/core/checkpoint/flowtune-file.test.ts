import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { decodeFlowtune, encodeFlowtune, inspectFlowtune } from './flowtune-file';
import { bitsOf, buildSafetensors, float32Bytes, metadataEntry, sampleContents, sampleMetadata, sampleOptimizer, shapesOf, uint16Bytes, checkpointError } from './fixtures/test-fixtures';

const anyShapes = { expectedShapes: null };

describe('encodeFlowtune / decodeFlowtune round trip', () => {
  it('gives back bit-identical tensors, the metadata and the optimizer state', () => {
    const contents = sampleContents();
    const bytes = encodeFlowtune(contents);
    const decoded = decodeFlowtune(bytes, {
      expectedShapes: shapesOf(contents.tensors), expectedOptimizerShapes: shapesOf(contents.optimizer!.tensors), expectedTask: 'pick-cube',
    });
    expect([...decoded.tensors.keys()]).toEqual([...contents.tensors.keys()]);
    for (const [name, tensor] of contents.tensors) {
      expect(decoded.tensors.get(name)!.shape).toEqual(tensor.shape);
      expect(bitsOf(decoded.tensors.get(name)!.data)).toEqual(bitsOf(tensor.data));
    }
    expect(Object.is(decoded.tensors.get('obs_encoder.dense.kernel')!.data[0], -0)).toBe(true);
    expect(decoded.metadata).toEqual(contents.metadata);
    expect(decoded.optimizer!.state).toEqual(contents.optimizer!.state);
    for (const [name, tensor] of contents.optimizer!.tensors) expect(bitsOf(decoded.optimizer!.tensors.get(name)!.data)).toEqual(bitsOf(tensor.data));
    // Writing what was read gives the same bytes again.
    expect(encodeFlowtune(decoded)).toEqual(bytes);
  });

  it('writes the safetensors layout: u64 LE header length, padded JSON header, contiguous LE data', () => {
    const contents = sampleContents(false);
    contents.tensors = new Map([['a', { shape: [2], data: Float32Array.of(1, -2) }], ['b', { shape: [1], data: Float32Array.of(0.5) }]]);
    const bytes = encodeFlowtune(contents);
    const headerLength = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect(headerLength % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
    expect(header.a).toEqual({ dtype: 'F32', shape: [2], data_offsets: [0, 8] });
    expect(header.b).toEqual({ dtype: 'F32', shape: [1], data_offsets: [8, 12] });
    expect(JSON.parse(header.__metadata__.flowtune)).toEqual(contents.metadata);
    // 1.0f = 0x3F800000, −2.0f = 0xC0000000, 0.5f = 0x3F000000, little-endian.
    expect(Array.from(bytes.subarray(8 + headerLength))).toEqual([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0, 0x3f]);
  });

  it('upcasts F16 and BF16 tensors to float32 (hand bit patterns)', () => {
    // F16 0x3C00 = 1, 0xC000 = −2, 0x3555 = 0.333251953125; BF16 0x3F80 = 1, 0x4049 = 3.140625.
    const file = buildSafetensors({
      ...metadataEntry(),
      half: { dtype: 'F16', shape: [3], data_offsets: [0, 6] },
      brain: { dtype: 'BF16', shape: [1, 2], data_offsets: [6, 10] },
    }, new Uint8Array([...uint16Bytes(0x3c00, 0xc000, 0x3555), ...uint16Bytes(0x3f80, 0x4049)]));
    const decoded = decodeFlowtune(file, anyShapes);
    expect(Array.from(decoded.tensors.get('half')!.data)).toEqual([1, -2, 0.333251953125]);
    expect(Array.from(decoded.tensors.get('brain')!.data)).toEqual([1, 3.140625]);
    expect(decoded.tensors.get('brain')!.shape).toEqual([1, 2]);
    // Writing F16 keeps half-representable values exactly and halves the data.
    const contents = sampleContents(false);
    contents.tensors = new Map([['w', { shape: [4], data: Float32Array.of(1, -2, 0.333251953125, 65504) }]]);
    expect(Array.from(decodeFlowtune(encodeFlowtune(contents, { dtype: 'F16' }), anyShapes).tensors.get('w')!.data)).toEqual([1, -2, 0.333251953125, 65504]);
  });

  it('describes a file without decoding it', () => {
    const summary = inspectFlowtune(encodeFlowtune(sampleContents()));
    expect(summary.metadata.task).toBe('pick-cube');
    expect(summary.tensors.get('velocity.blocks.0.dense.kernel')).toEqual({ dtype: 'F32', shape: [32, 8] });
    expect(summary.optimizerTensors.get('actor.obs_encoder.dense.kernel.m')).toEqual({ dtype: 'F32', shape: [12, 32] });
    expect(summary.optimizerState).toEqual(sampleOptimizer().state);
  });
});

describe('decodeFlowtune rejects bad files with one clear sentence', () => {
  const valid = encodeFlowtune(sampleContents());
  const expectedShapes = shapesOf(sampleContents().tensors);

  it('garbage bytes', () => {
    const rng = createRng(99);
    const garbage = Uint8Array.from({ length: 1000 }, () => rng.int(256));
    const claimed = new DataView(garbage.buffer).getBigUint64(0, true);
    expect(checkpointError(() => decodeFlowtune(garbage, anyShapes)).message)
      .toBe(`checkpoint is truncated or not a .flowtune file: its header length field says ${claimed} bytes but only 992 follow`);
    // A plausible length followed by non-JSON bytes.
    const plausible = new Uint8Array(40);
    new DataView(plausible.buffer).setBigUint64(0, 32n, true);
    plausible.set(garbage.subarray(0, 32), 8);
    expect(checkpointError(() => decodeFlowtune(plausible, anyShapes)).message)
      .toBe('checkpoint header is not valid UTF-8 JSON, so the file is corrupt or not a .flowtune file');
    expect(checkpointError(() => decodeFlowtune(new Uint8Array(5), anyShapes)).message)
      .toBe('checkpoint is 5 bytes, too short to hold the 8-byte header length of a .flowtune file');
  });

  it('a truncated file', () => {
    const contents = sampleContents(false);
    contents.tensors = new Map([['a', { shape: [4], data: Float32Array.of(1, 2, 3, 4) }]]);
    const bytes = encodeFlowtune(contents);
    // The whole file's sizes lead: 3 bytes short of the length its header promises.
    expect(checkpointError(() => decodeFlowtune(bytes.subarray(0, bytes.byteLength - 3), anyShapes)).message)
      .toBe(`the file is cut short (${bytes.byteLength - 3} of ${bytes.byteLength} bytes): tensor a has data_offsets [0,16] beyond the 13-byte data section`);
    expect(checkpointError(() => decodeFlowtune(bytes.subarray(0, 20), anyShapes)).message)
      .toMatch(/^checkpoint is truncated or not a \.flowtune file: its header length field says \d+ bytes but only 12 follow$/);
  });

  it('a header above the cap', () => {
    const headerLength = Number(new DataView(valid.buffer).getBigUint64(0, true));
    expect(checkpointError(() => decodeFlowtune(valid, { expectedShapes, maxHeaderBytes: 64 })).message)
      .toBe(`checkpoint header is ${headerLength} bytes, above the cap of 64 bytes`);
  });

  it('offsets out of range, overlapping tensors, wrong byte lengths and uncovered bytes', () => {
    const data = float32Bytes(1, 2, 3);
    const beyond = { a: { dtype: 'F32', shape: [25], data_offsets: [0, 100] } };
    const beyondFile = buildSafetensors({ ...metadataEntry(), ...beyond }, data).byteLength;
    const cases: [Record<string, unknown>, string][] = [
      // 12 data bytes where 100 are promised: the file is 88 bytes short.
      [beyond, `the file is cut short (${beyondFile} of ${beyondFile + 88} bytes): tensor a has data_offsets [0,100] beyond the 12-byte data section`],
      [{ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] } }, 'tensors a and b overlap in the data section ([0,8] and [4,12])'],
      [{ a: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, 'tensor a has 8 bytes, but shape [3] of F32 needs 12'],
      [{ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } }, 'checkpoint data section has 4 bytes that belong to no tensor'],
      [{ a: { dtype: 'F32', shape: [3], data_offsets: [8, 4] } }, 'tensor a has data_offsets [8,4], which is not an ordered pair of non-negative integers'],
      [{ a: { dtype: 'F32', shape: [3] } }, 'tensor a has a malformed header entry (it needs dtype, shape and data_offsets [begin, end])'],
      [{ a: { dtype: 'F32', shape: [-3], data_offsets: [0, 12] } }, 'tensor a has shape [-3], which is not a list of non-negative integers'],
    ];
    for (const [entries, message] of cases) {
      expect(checkpointError(() => decodeFlowtune(buildSafetensors({ ...metadataEntry(), ...entries }, data), anyShapes)).message).toBe(message);
    }
  });

  it('an unknown dtype, listing the allowed ones', () => {
    const file = buildSafetensors({ ...metadataEntry(), a: { dtype: 'I32', shape: [3], data_offsets: [0, 12] } }, float32Bytes(1, 2, 3));
    expect(checkpointError(() => decodeFlowtune(file, anyShapes)).message).toBe("tensor a has dtype 'I32'; allowed dtypes are F32, F16, BF16");
  });

  it('a wrong shape, a missing tensor and an unexpected tensor', () => {
    const contents = sampleContents(false);
    contents.tensors = new Map([['velocity.blocks.0.dense.kernel', { shape: [64, 256], data: new Float32Array(64 * 256) }]]);
    const bytes = encodeFlowtune(contents);
    expect(checkpointError(() => decodeFlowtune(bytes, { expectedShapes: new Map([['velocity.blocks.0.dense.kernel', [68, 256]]]) })).message)
      .toBe('tensor velocity.blocks.0.dense.kernel has shape [64,256], expected [68,256]');
    expect(checkpointError(() => decodeFlowtune(bytes, { expectedShapes: new Map([['velocity.blocks.0.dense.kernel', [64, 256]], ['value_head.bias', [1]]]) })).message)
      .toBe('checkpoint has no tensor value_head.bias, which the model needs');
    expect(checkpointError(() => decodeFlowtune(bytes, { expectedShapes: new Map() })).message)
      .toBe('checkpoint has tensor velocity.blocks.0.dense.kernel, which the model does not have');
    expect(checkpointError(() => decodeFlowtune(valid, { expectedShapes, expectedOptimizerShapes: new Map() })).message)
      .toBe('checkpoint has optimizer tensor actor.obs_encoder.dense.kernel.m, which the model does not have');
  });

  it('a checkpoint for another task', () => {
    const contents = { ...sampleContents(false), metadata: sampleMetadata('lift') };
    expect(checkpointError(() => decodeFlowtune(encodeFlowtune(contents), { expectedShapes, expectedTask: 'pick-cube' })).message)
      .toBe("checkpoint is for task 'lift' but the run is 'pick-cube'");
  });

  it('non-finite values, in F32 and in F16', () => {
    const nanFile = buildSafetensors({ ...metadataEntry(), a: { dtype: 'F32', shape: [3], data_offsets: [0, 12] } }, float32Bytes(1, NaN, 3));
    expect(checkpointError(() => decodeFlowtune(nanFile, anyShapes)).message).toBe('tensor a has a non-finite value (NaN) at element 1');
    const infFile = buildSafetensors({ ...metadataEntry(), h: { dtype: 'F16', shape: [2], data_offsets: [0, 4] } }, uint16Bytes(0x3c00, 0xfc00));
    expect(checkpointError(() => decodeFlowtune(infFile, anyShapes)).message).toBe('tensor h has a non-finite value (-Infinity) at element 1');
  });

  it('missing, unparsable or outdated metadata', () => {
    const data = float32Bytes(1);
    const entry = { a: { dtype: 'F32', shape: [1], data_offsets: [0, 4] } };
    const message = (header: Record<string, unknown>) => checkpointError(() => decodeFlowtune(buildSafetensors({ ...header, ...entry }, data), anyShapes)).message;
    expect(message({})).toBe('checkpoint has no __metadata__.flowtune entry, so it is not a Flowtune checkpoint');
    expect(message({ __metadata__: { flowtune: '{not json' } })).toBe('checkpoint entry __metadata__.flowtune is not valid JSON');
    expect(message({ __metadata__: { flowtune: 3 } })).toBe('checkpoint header entry __metadata__ must map names to strings');
    expect(message(metadataEntry({ ...sampleMetadata(), format_version: 7 }))).toBe('checkpoint has format_version 7, but this build reads format_version 1');
    expect(message(metadataEntry({ ...sampleMetadata(), stage: 'sft' }))).toBe('checkpoint metadata field \'stage\' is "sft"; allowed values are bc, offline, ppo');
    expect(message(metadataEntry({ ...sampleMetadata(), training: { step: 1, iteration: -1, env_steps: 0 } }))).toBe("checkpoint metadata field 'training.iteration' must be a non-negative integer, got -1");
    expect(message(metadataEntry({ ...sampleMetadata(), shape_meta: { obs: {}, action: { shape: [1.5] } } }))).toBe("checkpoint metadata field 'shape_meta.action.shape' must be a shape (an array of non-negative integers)");
    const optimizerOnly = buildSafetensors({ ...metadataEntry(), 'optimizer.m': { dtype: 'F32', shape: [1], data_offsets: [0, 4] } }, data);
    expect(checkpointError(() => decodeFlowtune(optimizerOnly, anyShapes)).message).toBe('checkpoint has optimizer tensors but no __metadata__.flowtune_optimizer entry');
  });
});

describe('encodeFlowtune refuses contents it could not read back', () => {
  it('names the tensor or field', () => {
    const withTensor = (name: string, shape: number[], data: Float32Array) => ({ ...sampleContents(false), tensors: new Map([[name, { shape, data }]]) });
    expect(checkpointError(() => encodeFlowtune(withTensor('a', [2], Float32Array.of(1, Infinity)))).message).toBe('tensor a has a non-finite value (Infinity) at element 1');
    expect(checkpointError(() => encodeFlowtune(withTensor('a', [3], Float32Array.of(1, 2)))).message).toBe('tensor a has 2 values, but shape [3] needs 3');
    expect(checkpointError(() => encodeFlowtune(withTensor('optimizer.m', [1], Float32Array.of(1)))).message).toBe("model tensor optimizer.m may not start with 'optimizer.', which marks optimizer state");
    expect(checkpointError(() => encodeFlowtune({ ...sampleContents(false), metadata: { ...sampleMetadata(), task: '' } })).message).toBe("checkpoint metadata field 'task' must be a non-empty string");
  });
});
