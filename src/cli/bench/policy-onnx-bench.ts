import { exportPolicyOnnx } from '../../core/checkpoint/onnx/export-onnx';
import { onnxPolicySpec } from '../../core/checkpoint/onnx/export-spec';
import { bundleContents } from '../../core/checkpoint/policy-checkpoint';
import { applyOverrides, defaultConfig } from '../../core/config';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { MinMaxNormalizer } from '../../core/policy/normalizer';
import { obsFrameSize, resolveFlowPolicyOptions, type FlowPolicyOptions } from '../../core/policy/options';
import { createRng } from '../../core/random';
import { bundleActor } from '../../core/rl/evaluate';
import { useNodeBackend } from '../node-backend';
import { OnnxActor } from '../onnx-actor';
import type { BenchRow } from './bench-row';
import { timeIt } from './bench-timing';

const STEPS = 4;
const N_ACTION_STEPS = 4;
/** The `decisions_per_s` MLP, and the shipped point-cloud DiT-X (as policy-ditx-bench.ts). */
const ARCHITECTURES: { label: string; batch: number; options: FlowPolicyOptions; describe: string }[] = [
  { label: '', batch: 64, options: resolveFlowPolicyOptions({ obsDim: 42, horizon: 8, actionDim: 4 }), describe: 'mlp [256, 256, 256] obs_dim=42' },
  {
    label: 'ditx_',
    batch: 16,
    options: resolveFlowPolicyOptions({
      obsEncoder: 'pointcloud', numPoints: 128, obsDim: 15, nObsSteps: 2, horizon: 8, actionDim: 4,
      velocityNet: 'ditx', ditxDim: 64, ditxDepth: 2, ditxHeads: 4, encoderHidden: [32, 64], valueHidden: [128, 128], noiseHidden: [128, 64],
    }),
    describe: 'ditx 64x2 heads=4 pointcloud N=128 n_obs=2',
  },
];

/**
 * The deterministic eval decision (normalize, K Euler steps, unnormalize; DESIGN.md §6 "ONNX") per
 * batch, as tfjs on wasm runs it and as its ONNX export runs in onnxruntime-node on the CPU.
 */
export async function benchOnnx(): Promise<BenchRow[]> {
  await useNodeBackend('wasm');
  const config = applyOverrides(defaultConfig(), ['task=pick-cube', `policy.denoise_steps=${STEPS}`, `policy.n_action_steps=${N_ACTION_STEPS}`]);
  const rows: BenchRow[] = [];
  for (const { label, batch, options, describe } of ARCHITECTURES) {
    const frame = obsFrameSize(options);
    const unit = { min: new Array(frame).fill(-1), max: new Array(frame).fill(1) };
    const bundle = {
      policy: new FlowPolicy(options, 0),
      obsNormalizer: new MinMaxNormalizer(unit),
      actionNormalizer: new MinMaxNormalizer({ min: [-1, -1, -1, -1], max: [1, 1, 1, 1] }),
    };
    const { metadata } = await bundleContents({ bundle, task: config.task, stage: 'bc', config });
    const onnxActor = await OnnxActor.open(await exportPolicyOnnx(bundle, metadata), onnxPolicySpec(bundle, metadata));
    try {
      const tfjsActor = bundleActor(bundle, config);
      const obs = createRng(2).fillNormal(new Float32Array(batch * options.nObsSteps * frame)).map((value) => 0.5 * value);
      const rng = createRng(3);
      const tfjsSeconds = await timeIt(20, async () => void (await tfjsActor.act(obs, batch, rng)), 3);
      const onnxSeconds = await timeIt(20, async () => void (await onnxActor.act(obs, batch, rng)), 3);
      console.error(`  eval decision ${label || 'mlp_'}batch ${batch}: tfjs wasm ${(tfjsSeconds * 1000).toFixed(2)} ms, onnxruntime-node ${(onnxSeconds * 1000).toFixed(2)} ms`);
      const note = `${describe} H=8 A=4 K=${STEPS} batch=${batch}; deterministic ODE decision incl. normalizers`;
      rows.push(
        { group: 'policy', metric: `${label}eval_decisions_per_s_tfjs`, value: batch / tfjsSeconds, unit: 'decisions/s', backend: 'wasm', note: `${note}; the eval sampler, which also runs the value head` },
        { group: 'policy', metric: `${label}eval_decisions_per_s_onnx`, value: batch / onnxSeconds, unit: 'decisions/s', backend: 'onnxruntime-node cpu', note: `${note}; the npm run export graph, default thread pool` },
      );
    } finally {
      await onnxActor.dispose();
      bundle.policy.dispose();
    }
  }
  return rows;
}
