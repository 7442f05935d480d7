import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { CheckpointError } from '../../errors';
import type { PolicyBundle } from '../../policy/policy-bundle';
import { policyOptionsFromConfig } from '../../rl/policy-setup';
import { exportPolicyOnnx, ONNX_IR_VERSION, ONNX_OPSET } from './export-onnx';
import { onnxPolicySpec } from './export-spec';
import { bundleMetadata, DITX, exportConfig, POINTCLOUD, randomBundle } from './fixtures';
import { readOnnxPolicy } from './policy-metadata';

const { onnx } = onnxProto;
/** pick-cube point-cloud frames: 32 points × 3 + 15 proprioception values. */
const FRAME = 32 * 3 + 15;
const config = exportConfig([...POINTCLOUD, ...DITX]);
let bundle: PolicyBundle;

beforeAll(async () => {
  await useNodeBackend('wasm');
  bundle = await randomBundle(policyOptionsFromConfig(config, FRAME, 4), 3);
});
afterAll(() => bundle.policy.dispose());

describe('the exported model declares what it is', () => {
  it('IR version 8, opset 17, and metadata_props with task, shapes, control mode and the Flowtune metadata', async () => {
    const metadata = { ...(await bundleMetadata(bundle, config)), resume: { envs: 'large state' } };
    const model = onnx.ModelProto.decode(await exportPolicyOnnx(bundle, metadata));
    expect(Number(model.irVersion)).toBe(ONNX_IR_VERSION);
    expect(ONNX_IR_VERSION).toBe(8);
    expect(model.opsetImport.map((entry) => [entry.domain, Number(entry.version)])).toEqual([['', ONNX_OPSET]]);
    expect(ONNX_OPSET).toBe(17);

    const props = Object.fromEntries(model.metadataProps.map((entry) => [entry.key, entry.value]));
    expect(props).toMatchObject({
      task: 'pick-cube', control_mode: 'ee_delta_pos', obs_type: 'pointcloud', n_obs_steps: '2', obs_dim: String(FRAME), num_points: '32',
      proprio_dim: '15', horizon: '6', action_dim: '4', n_action_steps: '3', denoise_steps: '5',
    });
    expect(props.obs_layout).toBe('each frame is 32 points as x, y, z in the world frame (96 values), then 15 proprioception values');
    // The Flowtune metadata rides along whole, except a run's resume state.
    const { resume: _resume, ...withoutResume } = metadata;
    expect(JSON.parse(props.flowtune)).toEqual(withoutResume);

    const dims = (value: onnxProto.onnx.IValueInfoProto) => value.type?.tensorType?.shape?.dim?.map((dim) => dim.dimParam || Number(dim.dimValue));
    expect(model.graph?.input?.map((value) => [value.name, dims(value)])).toEqual([['obs', ['batch', 2, FRAME]], ['x0', ['batch', 6, 4]]]);
    expect(model.graph?.output?.map((value) => [value.name, dims(value)])).toEqual([['actions', ['batch', 3, 4]]]);
  });

  it('reads back as the spec it was written from, and onnxruntime-node opens it', async () => {
    const metadata = await bundleMetadata(bundle, config);
    const bytes = await exportPolicyOnnx(bundle, metadata);
    const read = readOnnxPolicy(bytes);
    expect(read.spec).toEqual(onnxPolicySpec(bundle, metadata));
    expect(read.metadata).toEqual(metadata);
    expect([read.irVersion, read.opsetVersion]).toEqual([8, 17]);
    const session = await ort.InferenceSession.create(bytes);
    try {
      expect([session.inputNames, session.outputNames]).toEqual([['obs', 'x0'], ['actions']]);
    } finally {
      await session.release();
    }
  });

  it('a file that is not a Flowtune ONNX policy is refused in one sentence', async () => {
    expect(() => readOnnxPolicy(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(CheckpointError);
    expect(() => readOnnxPolicy(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(/^the file is not a readable ONNX model \(/);
    const foreign = onnx.ModelProto.encode({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], graph: { name: 'other' } }).finish();
    expect(() => readOnnxPolicy(foreign)).toThrow(/^the ONNX model has no 'flowtune' metadata_props entry, so Flowtune did not export it$/);
  });

  it('a file whose metadata or graph was changed after export is refused before a session opens, naming the key or tensor', async () => {
    const bytes = await exportPolicyOnnx(bundle, await bundleMetadata(bundle, config));
    /** The model re-encoded after `edit` changes its decoded form. */
    const edited = (edit: (model: onnxProto.onnx.ModelProto, props: Map<string, onnxProto.onnx.IStringStringEntryProto>) => void) => {
      const model = onnx.ModelProto.decode(bytes);
      edit(model, new Map(model.metadataProps.map((entry) => [entry.key ?? '', entry])));
      return onnx.ModelProto.encode(model).finish();
    };
    const huge = edited((_model, props) => { props.get('horizon')!.value = String(2 ** 40); });
    expect(() => readOnnxPolicy(huge)).toThrow(CheckpointError);
    expect(() => readOnnxPolicy(huge)).toThrow(/^the ONNX model's metadata_props 'horizon' is 1099511627776, but policy.horizon must be an integer in \[1, 128\]$/);
    const fewerSteps = edited((_model, props) => { props.get('n_action_steps')!.value = '2'; });
    expect(() => readOnnxPolicy(fewerSteps))
      .toThrow(/^the ONNX model's metadata_props 'n_action_steps' is 2, but its Flowtune metadata's architecture has n_action_steps=3; export it again from the .flowtune$/);
    const renamed = edited((model) => { model.graph!.output![0].name = 'act'; });
    expect(() => readOnnxPolicy(renamed))
      .toThrow(/^the ONNX model's graph must have inputs 'obs' and 'x0' and output 'actions', as Flowtune exports it, but it has inputs \['obs', 'x0'\] and outputs \['act'\]$/);
    const reshaped = edited((model) => { model.graph!.input![1].type!.tensorType!.shape!.dim![1].dimValue = 7; });
    expect(() => readOnnxPolicy(reshaped))
      .toThrow(/^the ONNX model's graph input 'x0' has shape \[batch, 7, 4\], but its metadata_props 'horizon' and 'action_dim' give \[batch, 6, 4\]$/);
    // Re-encoding by itself changes nothing that is checked.
    expect(readOnnxPolicy(edited(() => undefined)).spec).toEqual(readOnnxPolicy(bytes).spec);
  });
});
