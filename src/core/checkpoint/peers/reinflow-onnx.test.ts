import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { applyOverrides, defaultConfig, PRESETS } from '../../config';
import { loadPolicy } from '../../run/families';
import { metadataWithSampler } from '../../run/export-settings';
import { openCheckpoint } from '../../run/open-checkpoint';
import { openPeerCheckpoint } from '../../run/peer-checkpoint-file';
import { ONNX_POLICY_IO } from '../onnx/policy-graph';
import { stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';

const here = path.dirname(fileURLToPath(import.meta.url));
const PEER = path.resolve(here, '../../../../../shared/fixtures/peers/reinflow-hopper');

interface Expected {
  obs_raw: number[][];
  z: number[][][];
  runs: Array<{ inference_steps: number; actions: number[][][] }>;
}

describe.skipIf(!existsSync(PEER))("ReinFlow's pretrained hopper policy, imported and exported as ONNX", () => {
  beforeAll(async () => {
    await useNodeBackend('wasm');
  });

  it('is matched to hopper by its sizes, and its graph given z as x0 returns ReinFlow\'s actions for K = 4, 1 and 20 in onnxruntime (1e-4, env units)', async () => {
    const { file, notes } = openPeerCheckpoint({
      checkpoint: { name: 'state_40.pt', bytes: readFileSync(path.join(PEER, 'state_40.pt')) },
      normalization: { name: 'normalization.npz', bytes: readFileSync(path.join(PEER, 'normalization.npz')) },
    });
    expect(file.task).toBe('hopper');
    expect(notes.at(-1)).toContain('fits task hopper');
    const expected = JSON.parse(readFileSync(path.join(PEER, 'expected.json'), 'utf8')) as Expected;
    const batch = expected.z.length;
    for (const run of expected.runs) {
      const { checkpoint, config } = openCheckpoint(file, applyOverrides(defaultConfig(), ['task=hopper']), [`policy.denoise_steps=${run.inference_steps}`]);
      expect(config.policy.velocity_net).toBe('reflow_mlp');
      const policy = loadPolicy(checkpoint, config);
      try {
        const { bytes, description } = await policy.exportOnnx(metadataWithSampler(checkpoint.metadata, config));
        expect(description).toContain(`${run.inference_steps} Euler steps`);
        const session = await ort.InferenceSession.create(bytes);
        const outputs = await session.run({
          [ONNX_POLICY_IO.obs]: new ort.Tensor('float32', Float32Array.from(expected.obs_raw.flat()), [batch, 1, 11]),
          [ONNX_POLICY_IO.x0]: new ort.Tensor('float32', Float32Array.from(expected.z.flat(2)), [batch, 4, 3]),
        });
        const actions = outputs[ONNX_POLICY_IO.actions].data as Float32Array;
        const want = run.actions.flat(2);
        expect(actions.length).toBe(want.length);
        const worst = Math.max(...want.map((value, index) => Math.abs(actions[index] - value)));
        expect(worst, `K = ${run.inference_steps}`).toBeLessThan(1e-4);
        await session.release();
      } finally {
        policy.dispose();
      }
    }
  });
});

describe("ReinFlow's ShortCutFlow, imported and exported as ONNX", () => {
  const FIXTURES = path.join(here, 'fixtures');
  for (const [combination, activation] of [['concate', 'Mish'], ['add', 'SiLU']]) {
    it(`${combination}: the graph given z as x0 returns ShortCutFlow.sample's actions (K = 4, 1e-5; its actions span [-1, 1])`, async () => {
      const read = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(FIXTURES, name))) });
      const config = { name: 'config.yaml', text: `model:\n  network:\n    activation_type: ${activation}\n    embed_combination_type: ${combination}\n` };
      const { file } = openPeerCheckpoint({ checkpoint: read(`shortcut-${combination}.pt`), normalization: read('normalization.npz'), config });
      const expected = JSON.parse(readFileSync(path.join(FIXTURES, `shortcut-${combination}.expected.json`), 'utf8')) as { obs_normalized: number[][]; z: number[][][]; runs: Array<{ inference_steps: number; actions_normalized: number[][][] }> };
      const opened = openCheckpoint(file, applyOverrides(defaultConfig(), ['task=hopper']), []);
      const { checkpoint } = opened;
      const policy = loadPolicy(checkpoint, opened.config);
      try {
        const { bytes } = await policy.exportOnnx(checkpoint.metadata);
        const session = await ort.InferenceSession.create(bytes);
        // The normalized observations back in env units: o = (o_n + 1)/2·(max − min) + min.
        const { min, max } = (checkpoint.metadata.normalizer.obs as unknown as { min: number[]; max: number[] });
        const obs = Float32Array.from(expected.obs_normalized.flatMap((row) => row.map((value, j) => ((value + 1) / 2) * (max[j] - min[j]) + min[j])));
        const batch = expected.z.length;
        const outputs = await session.run({
          [ONNX_POLICY_IO.obs]: new ort.Tensor('float32', obs, [batch, 1, 11]),
          [ONNX_POLICY_IO.x0]: new ort.Tensor('float32', Float32Array.from(expected.z.flat(2)), [batch, 4, 3]),
        });
        const actions = outputs[ONNX_POLICY_IO.actions].data as Float32Array;
        const want = expected.runs[0].actions_normalized.flat(2);
        expect(actions.length).toBe(want.length);
        expect(Math.max(...want.map((value, index) => Math.abs(actions[index] - value)))).toBeLessThan(1e-5);
        await session.release();
      } finally {
        policy.dispose();
      }
    });
  }
});

describe.skipIf(!existsSync(PEER))('a run from the fine-tuned ReinFlow file', () => {
  it("starts with the file's exploration-noise net and critic (preset=locomotion-reinflow), a pretraining file with fresh ones", () => {
    const read = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(PEER, name))) });
    const open = (name: string) => openCheckpoint(
      openPeerCheckpoint({ checkpoint: read(name), normalization: read('normalization.npz') }).file,
      applyOverrides(defaultConfig(), ['task=hopper']),
      PRESETS['locomotion-reinflow'].overrides,
    );
    const { checkpoint, config } = open('finetuned_120.pt');
    expect(config.noise.method).toBe('noise');
    if (checkpoint.kind !== 'flow') throw new Error('expected a flow checkpoint');
    const model = stateDictTensors((readTorchCheckpoint(read('finetuned_120.pt').bytes) as PickleDict).get('model') as PickleDict);
    // torch's Linear weight [out, in] is our kernel [in, out]: the critic's last layer [1, 256] is [256, 1], the same values in order.
    expect(Array.from(checkpoint.tensors.get('value.output.kernel')!.data)).toEqual(Array.from(model.get('critic.Q1.layers.2.weight')!.data as Float32Array));
    const noiseBias = Array.from(model.get('actor_ft.explore_noise_net.mlp_logvar.moduleList.2.linear_1.bias')!.data as Float32Array);
    expect(Array.from(checkpoint.tensors.get('noise_head.output.bias')!.data)).toEqual(noiseBias);
    const pretrained = open('state_40.pt').checkpoint;
    if (pretrained.kind !== 'flow') throw new Error('expected a flow checkpoint');
    expect(Array.from(pretrained.tensors.get('noise_head.output.bias')!.data)).not.toEqual(noiseBias);
  });
});
