/**
 * The Gaussian policy's deterministic action as one ONNX graph (DESIGN.md §6 "ONNX", §14): obs
 * [B, 1, obs_dim] in env units → (o − mean) / sqrt(var + 1e-8) with the frozen running stats,
 * clipped to ±clip → the tanh actor MLP → the mean action [B, 1, A] in env units (the env clips
 * it to its range). No x0 input: the mean action takes no noise.
 */
import onnxProto from 'onnx-proto';
import type { FlowtuneMetadata } from '../checkpoint/metadata';
import { GraphBuilder } from '../checkpoint/onnx/graph-builder';
import { graphParams } from '../checkpoint/onnx/graph-params';
import { dense } from '../checkpoint/onnx/layers';
import { ONNX_IR_VERSION, ONNX_OPSET, ONNX_PRODUCER } from '../checkpoint/onnx/export-onnx';
import type { GaussianBundle } from './gaussian-bundle';
import { NORM_EPSILON } from './observation-scaler';

export const GAUSSIAN_ONNX_IO = { obs: 'obs', actions: 'actions' } as const;

export async function gaussianOnnxModel(bundle: GaussianBundle, metadata: FlowtuneMetadata): Promise<onnxProto.onnx.IModelProto> {
  const { policy, obsScaler } = bundle;
  const { obsDim, actionDim, hidden } = policy.options;
  const g = new GraphBuilder();
  const param = graphParams(g, await policy.getWeights());
  let x = g.op('Reshape', [g.input(GAUSSIAN_ONNX_IO.obs), g.int64s([0, obsDim])], {}, 'obs_flat');
  if (obsScaler.enabled) {
    const scale = Float32Array.from(obsScaler.stats.variance, (variance) => 1 / Math.sqrt(variance + NORM_EPSILON));
    const mean = Float32Array.from(obsScaler.stats.mean);
    x = g.op('Mul', [g.op('Sub', [x, g.floatTensor('obs_mean', mean, [obsDim])]), g.floatTensor('obs_inv_std', scale, [obsDim])], {}, 'obs_normalized');
    x = g.op('Clip', [x, g.floatScalar(-obsScaler.clip), g.floatScalar(obsScaler.clip)], {}, 'obs_clipped');
  }
  for (let layer = 0; layer < hidden.length; layer++) x = g.op('Tanh', [dense(g, param, `actor.l${layer}`, x)], {}, `actor_h${layer}`);
  const mean = dense(g, param, 'actor.mean', x);
  g.output(g.op('Reshape', [mean, g.int64s([0, 1, actionDim])], {}, 'actions_shaped'), GAUSSIAN_ONNX_IO.actions);
  const { resume: _resume, ...kept } = metadata;
  const props: Record<string, string> = {
    task: metadata.task,
    policy_kind: 'gaussian',
    obs_type: 'state',
    inputs: `obs float32 [batch, 1, ${obsDim}] in env units (the task's state vector)`,
    outputs: `actions float32 [batch, 1, ${actionDim}]: the policy's mean action in env units (Flowtune's envs clip each value to [-1, 1])`,
    n_obs_steps: '1',
    obs_dim: String(obsDim),
    action_dim: String(actionDim),
    flowtune: JSON.stringify(kept),
  };
  return {
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: ONNX_PRODUCER,
    modelVersion: metadata.training.step,
    docString: `Flowtune Gaussian policy (mean action) for ${metadata.task}.`,
    graph: g.graph(
      'flowtune_gaussian_policy',
      [{ name: GAUSSIAN_ONNX_IO.obs, dims: ['batch', 1, obsDim] }],
      [{ name: GAUSSIAN_ONNX_IO.actions, dims: ['batch', 1, actionDim] }],
      `Mean action of a tanh MLP (${hidden.join('×')}) on running-normalized observations.`,
    ),
    metadataProps: Object.entries(props).map(([key, value]) => ({ key, value })),
  };
}

export async function exportGaussianOnnx(bundle: GaussianBundle, metadata: FlowtuneMetadata): Promise<Uint8Array> {
  return onnxProto.onnx.ModelProto.encode(await gaussianOnnxModel(bundle, metadata)).finish();
}
