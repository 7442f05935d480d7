import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import type { PolicyBundle } from '../../policy/policy-bundle';
import { policyOptionsFromConfig } from '../../rl/policy-setup';
import { exportPolicyOnnx } from './export-onnx';
import { onnxPolicySpec } from './export-spec';
import { bundleMetadata, exportConfig, IMAGE, randomBundle } from './fixtures';
import { readOnnxPolicy } from './policy-metadata';

const { onnx } = onnxProto;
/** pick-cube's proprioception beside its camera images. */
const PROPRIO = 15;
const config = exportConfig([...IMAGE, 'env.obs_type=rgbd', 'env.camera=front,wrist']);
let bundle: PolicyBundle;

beforeAll(async () => {
  await useNodeBackend('wasm');
  bundle = await randomBundle(policyOptionsFromConfig(config, PROPRIO, 4), 3);
});
afterAll(() => bundle.policy.dispose());

describe('an exported image policy says how to feed its images', () => {
  it('metadata_props name the images input, its cameras, size, channels and the depth byte; the graph declares it uint8', async () => {
    const model = onnx.ModelProto.decode(await exportPolicyOnnx(bundle, await bundleMetadata(bundle, config)));
    const props = Object.fromEntries(model.metadataProps.map((entry) => [entry.key, entry.value]));
    expect(props).toMatchObject({ obs_type: 'rgbd', obs_dim: '15', proprio_dim: '15', num_points: '0', image_cameras: 'front,wrist', image_size: '16', image_channels: '4' });
    expect(props.obs_layout).toBe('each frame is 15 proprioception values; the camera images are the separate images input');
    expect(props.inputs).toMatch(/; images uint8 \[batch, 2, 16, 16, 4\], the camera images as the env renders them \(see image_layout\)$/);
    expect(props.image_layout).toBe(
      'images uint8 [batch, 2, 16, 16, 4]: the cameras front, wrist in this order, each 16×16 pixels row-major from the top-left, channels last: '
      + 'red, green, blue 0..255 (shaded colour), then a depth byte: 0 where the ray hits nothing, else 1 + round(254 · (z − 0.02) / (2.5 − 0.02)) '
      + 'for the z-depth z in metres, clamped to 1..255 (1 near, 255 far); the raw bytes as rendered, not normalized (the graph scales them to [-0.5, 0.5] itself)',
    );
    const images = model.graph!.input!.find((value) => value.name === 'images')!;
    expect(images.type?.tensorType?.elemType).toBe(onnx.TensorProto.DataType.UINT8);
    expect(images.type?.tensorType?.shape?.dim?.map((dim) => dim.dimParam || Number(dim.dimValue))).toEqual(['batch', 2, 16, 16, 4]);
  });

  it('reads back as the spec it was written from, and onnxruntime-node sees the three inputs', async () => {
    const metadata = await bundleMetadata(bundle, config);
    const bytes = await exportPolicyOnnx(bundle, metadata);
    const read = readOnnxPolicy(bytes);
    expect(read.spec).toEqual(onnxPolicySpec(bundle, metadata));
    expect(read.spec.image).toEqual({ cameras: ['front', 'wrist'], size: 16, channels: 4 });
    const session = await ort.InferenceSession.create(bytes);
    try {
      expect([session.inputNames, session.outputNames]).toEqual([['obs', 'x0', 'images'], ['actions']]);
    } finally {
      await session.release();
    }
  });

  it('image metadata or an images input changed after export is refused in one sentence naming the key or tensor', async () => {
    const bytes = await exportPolicyOnnx(bundle, await bundleMetadata(bundle, config));
    const edited = (edit: (model: onnxProto.onnx.ModelProto, props: Map<string, onnxProto.onnx.IStringStringEntryProto>) => void) => {
      const model = onnx.ModelProto.decode(bytes);
      edit(model, new Map(model.metadataProps.map((entry) => [entry.key ?? '', entry])));
      return onnx.ModelProto.encode(model).finish();
    };
    const images = (model: onnxProto.onnx.ModelProto) => model.graph!.input!.find((value) => value.name === 'images')!;
    expect(() => readOnnxPolicy(edited((_model, props) => { props.get('image_size')!.value = '32'; })))
      .toThrow(/^the ONNX model's metadata_props give \{"cameras":\["front","wrist"\],"size":32,"channels":4\}, but its Flowtune metadata's architecture has \{"cameras":\["front","wrist"\],"size":16,"channels":4\}; export it again from the \.flowtune$/);
    expect(() => readOnnxPolicy(edited((_model, props) => { props.get('image_channels')!.value = '3'; })))
      .toThrow(/^the ONNX model's metadata_props 'image_channels' is 3, but obs_type rgbd has 4$/);
    expect(() => readOnnxPolicy(edited((_model, props) => { props.get('image_cameras')!.value = ''; })))
      .toThrow(/^the ONNX model's metadata_props 'image_cameras' must name its cameras, comma-separated, got ""$/);
    expect(() => readOnnxPolicy(edited((model) => { images(model).type!.tensorType!.elemType = onnx.TensorProto.DataType.FLOAT; })))
      .toThrow(/^the ONNX model's graph input 'images' holds float32, but Flowtune exports it as uint8$/);
    expect(() => readOnnxPolicy(edited((model) => { images(model).type!.tensorType!.shape!.dim![3].dimValue = 15; })))
      .toThrow(/^the ONNX model's graph input 'images' has shape \[batch, 2, 16, 15, 4\], but its metadata_props 'image_cameras', 'image_size' and 'image_channels' give \[batch, 2, 16, 16, 4\]$/);
    expect(() => readOnnxPolicy(edited((model) => { model.graph!.input!.pop(); })))
      .toThrow(/^the ONNX model's graph must have inputs 'obs', 'x0' and 'images' and output 'actions', as Flowtune exports it, but it has inputs \['obs', 'x0'\] and outputs \['actions'\]$/);
  });
});
