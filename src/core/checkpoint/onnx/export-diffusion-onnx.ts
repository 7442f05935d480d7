/**
 * ONNX export of a diffusion policy (DESIGN.md §6 "ONNX", §17): the same inputs, output, opset, checks and
 * metadata_props as the flow export (export-onnx.ts), with the deterministic DDPM or DDIM chain of diffusion-graph.ts.
 */
import onnxProto from 'onnx-proto';
import { CheckpointError } from '../../errors';
import type { DiffusionBase } from '../../diffusion/diffusion-actor';
import { chainLength } from '../../diffusion/diffusion-settings';
import type { PolicyBundle } from '../../policy/policy-bundle';
import type { FlowtuneMetadata } from '../metadata';
import { diffusionChainDescription, diffusionGraph, type DiffusionOnnxSpec } from './diffusion-graph';
import { ONNX_IR_VERSION, ONNX_OPSET, ONNX_PRODUCER } from './export-onnx';
import { onnxPolicySpec } from './export-spec';
import { inputsText, policyMetadataProps } from './policy-metadata';

/**
 * S, the DDIM steps of the checkpoint's run (config policy.ddim_steps; absent: 0, the DDPM chain). Throws
 * CheckpointError for a value the diffusion family would refuse: not a whole number from 0 to T, or not dividing T.
 */
function storedDdimSteps(metadata: FlowtuneMetadata, steps: number): number {
  const value = (metadata.config as { policy?: { ddim_steps?: unknown } } | undefined)?.policy?.ddim_steps;
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > steps || (value > 0 && steps % value !== 0)) {
    throw new CheckpointError(`the checkpoint's policy.ddim_steps must be 0 or a whole number that divides its ${steps} denoising steps for ONNX export, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * The export spec of a live diffusion policy and its checkpoint metadata: the flow export's (T = architecture
 * denoise_steps, policy.denoised_clamp) with S = policy.ddim_steps. Throws CheckpointError (one sentence) for anything the
 * graph could not reproduce exactly.
 */
export function diffusionOnnxSpec(bundle: PolicyBundle, metadata: FlowtuneMetadata, base?: DiffusionBase): DiffusionOnnxSpec {
  if (bundle.policy.options.prediction !== 'epsilon') {
    throw new CheckpointError('the diffusion ONNX export takes a policy whose net predicts the noise ε (prediction epsilon), but this one predicts a velocity; export it as a flow policy');
  }
  const spec = onnxPolicySpec(bundle, metadata);
  const ddimSteps = storedDdimSteps(metadata, spec.denoiseSteps);
  const length = chainLength({ steps: spec.denoiseSteps, ddimSteps });
  return { ...spec, ddimSteps, baseSteps: base ? Math.max(0, length - base.ftSteps) : 0 };
}

/** The flow export's metadata_props, with x0 described as x_T and a line naming the chain. */
function diffusionMetadataProps(spec: DiffusionOnnxSpec, metadata: FlowtuneMetadata): onnxProto.onnx.IStringStringEntryProto[] {
  const inputs = inputsText(spec, 'the chain\'s initial noise x_T (N(0, I) draws, or zeros for a fixed policy)');
  const props = policyMetadataProps(spec, metadata).map((entry) => (entry.key === 'inputs' ? { key: 'inputs', value: inputs } : entry));
  return [...props, { key: 'chain', value: diffusionChainDescription(spec) }];
}

/**
 * The deterministic chain of a live diffusion bundle as an ONNX ModelProto, with `metadata` (the checkpoint's, or one
 * built from the run) deciding T, S, the x̂_0 clamp, the executed steps and the stored task. Throws CheckpointError when
 * the policy cannot be exported exactly.
 */
export async function diffusionOnnxModel(bundle: PolicyBundle, metadata: FlowtuneMetadata, base?: DiffusionBase): Promise<onnxProto.onnx.IModelProto> {
  const spec = diffusionOnnxSpec(bundle, metadata, base);
  const weights = await bundle.policy.getWeights();
  const baseWeights = spec.baseSteps > 0 ? await base!.net.getWeights() : undefined;
  return {
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: ONNX_PRODUCER,
    modelVersion: metadata.training.step,
    docString: `Flowtune ${metadata.stage} diffusion policy for ${spec.task} (${spec.controlMode}).`,
    graph: diffusionGraph(bundle, weights, spec, baseWeights),
    metadataProps: diffusionMetadataProps(spec, metadata),
  };
}

/** diffusionOnnxModel encoded as the bytes of a `.onnx` file. */
export async function exportDiffusionOnnx(bundle: PolicyBundle, metadata: FlowtuneMetadata, base?: DiffusionBase): Promise<Uint8Array> {
  return onnxProto.onnx.ModelProto.encode(await diffusionOnnxModel(bundle, metadata, base)).finish();
}
