import onnxProto from 'onnx-proto';
import { obsFeatureDim, type FlowPolicyOptions } from '../../policy/options';
import { stepCoefficients, timeGrid } from '../../flow/time-grid';
import type { WeightEntry } from '../../policy/flow-policy';
import type { PolicyBundle } from '../../policy/policy-bundle';
import type { OnnxPolicySpec } from './export-spec';
import type { ImageLayout } from '../../envs/task-types';
import { GraphBuilder, type GraphValue } from './graph-builder';
import { graphParams, type GraphParam } from './graph-params';
import { normalizeNodes, unnormalizeNodes } from './normalizer';
import { encodeObsNodes } from './obs-encoder';
import { stepEmbeddingValues } from './time-embedding';
import { ditxObsTokenNodes, velocityDitxNodes } from './velocity-ditx';
import { velocityMlpNodes } from './velocity-mlp';
import { reflowTimeEmbeddingValues, velocityReflowNodes } from './velocity-reflow';
import { velocityUnet1dNodes } from './velocity-unet1d';

/** Names of the graph's inputs and output (DESIGN.md §6 "ONNX"); `images` only for an image policy. */
export const ONNX_POLICY_IO = { obs: 'obs', x0: 'x0', images: 'images', actions: 'actions' } as const;
/** The dynamic batch axis. */
export const BATCH_AXIS = 'batch';

/**
 * One Euler step of flow/denoise-chain.ts `stepMean` with the ODE weights: x0̂ = x − t·v,
 * x1̂ = x + (1 − t)·v, x' = w0·x0̂ + w1·x1̂, with w0 = 1 − (t − δ) and w1 = t − δ. Mul, Sub, Add.
 */
function eulerStepNodes(g: GraphBuilder, x: string, v: string, t: number, w0: number, w1: number): string {
  const x0Hat = g.op('Sub', [x, g.op('Mul', [v, g.floatScalar(t)])], {}, 'x0_hat');
  const x1Hat = g.op('Add', [x, g.op('Mul', [v, g.floatScalar(1 - t)])], {}, 'x1_hat');
  return g.op('Add', [g.op('Mul', [x0Hat, g.floatScalar(w0)]), g.op('Mul', [x1Hat, g.floatScalar(w1)])], {}, 'x');
}

/** The policy's denoising net inside a chain graph: its output at x for one step whose time input and step size are constants. */
export interface StepNet {
  /** The chain runs on flat [B, H·A] rows (the MLP nets) or on [B, H, A] (DiT-X, UNet1D). */
  readonly flat: boolean;
  /**
   * The net's output at x, in x's layout: what `policy.velocity` gives for net time `netTime` and step size `stepSize`
   * (a velocity, or ε for a diffusion policy). `hint` names the step's embedding constant.
   */
  output(x: string, netTime: number, stepSize: number, hint: string): string;
}

/** The velocity net of `options` over the observation tokens, for x shaped as x0 [B, H, A] (DiT-X, UNet1D) or flat (MLPs). */
function stepNetNodes(g: GraphBuilder, param: GraphParam, weights: ReadonlyMap<string, WeightEntry>, options: FlowPolicyOptions, obsTokens: string, x0: string): StepNet {
  const reflow = options.velocityNet === 'reflow_mlp';
  const mlp = options.velocityNet === 'mlp' || reflow;
  // ReinFlow's nets turn t (and d) into one embedding of timeEmbedDim; ours concatenate emb(t) and emb(d).
  const embeddingWidth = (options.shortcut && !reflow ? 2 : 1) * options.timeEmbedDim;
  let outputOf: (x: string, stepEmbedding: string) => string;
  if (reflow) {
    const features = g.op('Reshape', [obsTokens, g.int64s([0, -1])], {}, 'obs_features');
    const batchSize = g.op('Shape', [x0], { start: { int: 0 }, end: { int: 1 } }, 'batch_size');
    const embeddingShape = g.op('Concat', [batchSize, g.int64s([embeddingWidth])], { axis: { int: 0 } }, 'embedding_shape');
    outputOf = (x, stepEmbedding) => velocityReflowNodes(g, param, options, x, g.op('Expand', [stepEmbedding, embeddingShape], {}, 'time_embedding'), features, obsFeatureDim(options));
  } else if (mlp) {
    // The MLP reads flat features and concatenates the step embedding to every row: Expand it to [B, E].
    const features = g.op('Reshape', [obsTokens, g.int64s([0, -1])], {}, 'obs_features');
    const batchSize = g.op('Shape', [x0], { start: { int: 0 }, end: { int: 1 } }, 'batch_size');
    const embeddingShape = g.op('Concat', [batchSize, g.int64s([embeddingWidth])], { axis: { int: 0 } }, 'embedding_shape');
    outputOf = (x, stepEmbedding) => velocityMlpNodes(g, param, options, x, features, g.op('Expand', [stepEmbedding, embeddingShape], {}, 'step_embedding'));
  } else if (options.velocityNet === 'unet1d') {
    // The UNet1D reads flat features beside its learned step embedding, each the step's [1, E] constants through its MLPs.
    const features = g.op('Reshape', [obsTokens, g.int64s([0, -1])], {}, 'obs_features');
    const batchSize = g.op('Shape', [x0], { start: { int: 0 }, end: { int: 1 } }, 'batch_size');
    outputOf = (x, stepEmbedding) => velocityUnet1dNodes(g, param, weights, options, x, stepEmbedding, features, batchSize);
  } else {
    // DiT-X attends to observation tokens that stay the same over the steps: computed once.
    const tokens = ditxObsTokenNodes(g, param, obsTokens);
    outputOf = (x, stepEmbedding) => velocityDitxNodes(g, param, options, x, stepEmbedding, tokens);
  }
  return {
    flat: mlp,
    output: (x, netTime, stepSize, hint) => {
      // Every chain of a batch shares the step's time and size, so its [emb(t) | emb(d)] is a [1, E] constant.
      const embeddingValues = reflow
        ? reflowTimeEmbeddingValues(weights, options, netTime, stepSize)
        : stepEmbeddingValues(netTime, stepSize, options.timeEmbedDim, options.shortcut);
      return outputOf(x, g.floatTensor(`${hint}.embedding`, embeddingValues, [1, embeddingWidth]));
    },
  };
}

/** The `images` input: uint8 [batch, cameras, size, size, channels], as the env renders them and the rollout feeds them. */
export function imagesInput(image: ImageLayout): GraphValue {
  return { name: ONNX_POLICY_IO.images, dims: [BATCH_AXIS, image.cameras.length, image.size, image.size, image.channels], elemType: 'uint8' };
}

/**
 * A policy graph around one denoising chain: obs [B, nObs, frame] → min-max normalization → encoder (with the uint8
 * images [B, cameras, S, S, C] of an image policy, never normalized); `chain` maps x0
 * [B, H, A] (flat [B, H·A] for the MLP nets, as `net.flat` says) to the chain's last element through `net`; then the
 * first n_action_steps positions → action unnormalization → actions [B, n_action_steps, A] in env units.
 */
export function chainPolicyGraph(
  bundle: PolicyBundle,
  weights: ReadonlyMap<string, WeightEntry>,
  spec: OnnxPolicySpec,
  described: { name: string; docString: string },
  chain: (g: GraphBuilder, net: StepNet, x0: string, baseNet?: StepNet) => string,
  baseWeights?: ReadonlyMap<string, WeightEntry>,
): onnxProto.onnx.IGraphProto {
  const options = bundle.policy.options;
  const { horizon, actionDim } = options;
  const g = new GraphBuilder();
  const param = graphParams(g, weights);
  const obs = g.input(ONNX_POLICY_IO.obs);
  const x0 = g.input(ONNX_POLICY_IO.x0);
  const images = spec.image ? g.input(ONNX_POLICY_IO.images) : undefined;

  // The images bypass the normalizer, as at rollout time (rl/policy-input.ts).
  const normalizedObs = normalizeNodes(g, bundle.obsNormalizer, obs, 'obs_normalizer');
  const obsTokens = encodeObsNodes(g, param, options, normalizedObs, images);
  const net = stepNetNodes(g, param, weights, options, obsTokens, x0);
  // A second net of the same architecture (a fine-tuned diffusion policy's frozen base), its own encoder included.
  let baseNet: StepNet | undefined;
  if (baseWeights) {
    const baseParam = graphParams(g, baseWeights, 'base.');
    baseNet = stepNetNodes(g, baseParam, baseWeights, options, encodeObsNodes(g, baseParam, options, normalizedObs, images), x0);
  }
  const last = chain(g, net, net.flat ? g.op('Reshape', [x0, g.int64s([0, horizon * actionDim])], {}, 'x') : x0, baseNet);

  const chunk = net.flat ? g.op('Reshape', [last, g.int64s([0, horizon, actionDim])], {}, 'chunk') : last;
  const executed = g.op('Slice', [chunk, g.int64s([0]), g.int64s([spec.nActionSteps]), g.int64s([1])], {}, 'executed');
  g.output(unnormalizeNodes(g, bundle.actionNormalizer, executed, 'action_normalizer'), ONNX_POLICY_IO.actions);

  return g.graph(
    described.name,
    [
      { name: ONNX_POLICY_IO.obs, dims: [BATCH_AXIS, spec.nObsSteps, spec.obsFrameSize] },
      { name: ONNX_POLICY_IO.x0, dims: [BATCH_AXIS, horizon, actionDim] },
      ...(spec.image ? [imagesInput(spec.image)] : []),
    ],
    [{ name: ONNX_POLICY_IO.actions, dims: [BATCH_AXIS, spec.nActionSteps, actionDim] }],
    described.docString,
  );
}

/**
 * The deterministic policy as one graph, exactly the eval path (rl/evaluate.ts: all-ODE chains):
 * obs [B, nObs, frame] → min-max normalization → encoder → K Euler steps from x0 [B, H, A] on the
 * grid t_k = 1 − k/K with step size input d = 1/K (each clamped to [−c, c] with the run's policy.denoised_clamp c > 0) → x_K → the first n_action_steps positions →
 * action unnormalization → actions [B, n_action_steps, A] in env units.
 */
export function policyGraph(bundle: PolicyBundle, weights: ReadonlyMap<string, WeightEntry>, spec: OnnxPolicySpec): onnxProto.onnx.IGraphProto {
  const grid = timeGrid(spec.denoiseSteps, bundle.policy.options.timeGrid);
  const { w0, w1 } = stepCoefficients('ode', spec.denoiseSteps, 0);
  const docString = `Deterministic flow policy: ${spec.denoiseSteps} Euler ODE steps from x0 (t = 1) to the action (t = 0)`
    + `${spec.denoisedClamp > 0 ? `, each clamped to [-${spec.denoisedClamp}, ${spec.denoisedClamp}]` : ''}.`;
  return chainPolicyGraph(bundle, weights, spec, { name: 'flowtune_policy', docString }, (g, net, x0) => {
    let x = x0;
    for (let stepIndex = 0; stepIndex < spec.denoiseSteps; stepIndex++) {
      const velocity = net.output(x, grid.netTimes[stepIndex], grid.delta, `step_${stepIndex}`);
      x = eulerStepNodes(g, x, velocity, grid.times[stepIndex], w0[stepIndex], w1[stepIndex]);
      // flow/denoise-chain.ts clampMean: every step of every chain, when the run set policy.denoised_clamp.
      if (spec.denoisedClamp > 0) x = g.op('Clip', [x, g.floatScalar(-spec.denoisedClamp), g.floatScalar(spec.denoisedClamp)], {}, 'x_clamped');
    }
    return x;
  });
}
