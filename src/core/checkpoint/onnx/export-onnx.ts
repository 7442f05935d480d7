import onnxProto from 'onnx-proto';
import type { PolicyBundle } from '../../policy/policy-bundle';
import type { FlowtuneMetadata } from '../metadata';
import { onnxPolicySpec } from './export-spec';
import { policyGraph } from './policy-graph';
import { policyMetadataProps } from './policy-metadata';

/** ONNX opset of the default domain the graph uses (ReduceMean/ReduceMax take axes as attributes up to 17). */
export const ONNX_OPSET = 17;
/** IR version 8 (ONNX 1.10+), the first that opset 17 may use. */
export const ONNX_IR_VERSION = 8;
export const ONNX_PRODUCER = 'Flowtune Studio';

/**
 * The deterministic policy of a live bundle as an ONNX ModelProto (DESIGN.md §6 "ONNX"), with
 * `metadata` (the checkpoint's, or one built from the run) deciding K, the executed steps and the
 * stored task. Throws CheckpointError when the policy cannot be exported exactly.
 */
export async function policyOnnxModel(bundle: PolicyBundle, metadata: FlowtuneMetadata): Promise<onnxProto.onnx.IModelProto> {
  const spec = onnxPolicySpec(bundle, metadata);
  const weights = await bundle.policy.getWeights();
  return {
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: ONNX_PRODUCER,
    modelVersion: metadata.training.step,
    docString: `Flowtune ${metadata.stage} policy for ${spec.task} (${spec.controlMode}).`,
    graph: policyGraph(bundle, weights, spec),
    metadataProps: policyMetadataProps(spec, metadata),
  };
}

/** policyOnnxModel encoded as the bytes of a `.onnx` file. */
export async function exportPolicyOnnx(bundle: PolicyBundle, metadata: FlowtuneMetadata): Promise<Uint8Array> {
  return onnxProto.onnx.ModelProto.encode(await policyOnnxModel(bundle, metadata)).finish();
}
