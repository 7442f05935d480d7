import { CheckpointError } from '../../errors';
import { residualBlockCount, type TorchMlpLayout } from '../../policy/torch-mlp';
import type { ForeignTensor } from '../torch/tensor-dtypes';

/**
 * One parameter of ours and the peer's tensor it is: torch's Linear stores weight [out, in], we store kernel [in, out],
 * so kernels are transposed both ways; LayerNorm's weight and bias are our gamma and beta.
 */
export interface PeerName {
  peer: string;
  ours: string;
  transpose: boolean;
}

function linear(peer: string, ours: string): PeerName[] {
  return [{ peer: `${peer}.weight`, ours: `${ours}.kernel`, transpose: true }, { peer: `${peer}.bias`, ours: `${ours}.bias`, transpose: false }];
}

function norm(peer: string, ours: string): PeerName[] {
  return [{ peer: `${peer}.weight`, ours: `${ours}.gamma`, transpose: false }, { peer: `${peer}.bias`, ours: `${ours}.beta`, transpose: false }];
}

/** A torch Linear's names, for the peers' plain Sequential layers (FlowMLP's time embedding). */
export const linearNames = linear;

/**
 * The peers' `model/common/mlp.py` names of one MLP (policy/torch-mlp.ts): ResidualMLP's `layers.0`, `layers.j.l1|l2|norm1|norm2`
 * and the last Linear; MLP's `moduleList.i.linear_1` and `norm_1`.
 */
export function peerMlpNames(peerPrefix: string, ourPrefix: string, layout: TorchMlpLayout): PeerName[] {
  const names: PeerName[] = [];
  if (layout.residual) {
    const blocks = residualBlockCount(layout);
    names.push(...linear(`${peerPrefix}.layers.0`, `${ourPrefix}.input`));
    for (let block = 0; block < blocks; block++) {
      const peer = `${peerPrefix}.layers.${block + 1}`;
      const ours = `${ourPrefix}.blocks.${block}`;
      if (layout.layerNorm) names.push(...norm(`${peer}.norm1`, `${ours}.norm1`));
      names.push(...linear(`${peer}.l1`, `${ours}.l1`));
      if (layout.layerNorm) names.push(...norm(`${peer}.norm2`, `${ours}.norm2`));
      names.push(...linear(`${peer}.l2`, `${ours}.l2`));
    }
    names.push(...linear(`${peerPrefix}.layers.${blocks + 1}`, `${ourPrefix}.output`));
    return names;
  }
  const last = layout.dims.length - 2;
  for (let layer = 0; layer < last; layer++) {
    names.push(...linear(`${peerPrefix}.moduleList.${layer}.linear_1`, `${ourPrefix}.layers.${layer}`));
    if (layout.layerNorm) names.push(...norm(`${peerPrefix}.moduleList.${layer}.norm_1`, `${ourPrefix}.norms.${layer}`));
  }
  names.push(...linear(`${peerPrefix}.moduleList.${last}.linear_1`, `${ourPrefix}.output`));
  return names;
}

/** The shape of a 2-D weight, or a sentence naming the missing or odd tensor. */
function weightShape(tensors: ReadonlyMap<string, ForeignTensor>, name: string, label: string): [number, number] {
  const tensor = tensors.get(name);
  if (!tensor) throw new CheckpointError(`${label} has no tensor '${name}'`);
  if (tensor.shape.length !== 2) throw new CheckpointError(`${label}: '${name}' should be a 2-D weight, got shape [${tensor.shape.join(', ')}]`);
  return [tensor.shape[0], tensor.shape[1]];
}

/** The MLP's style and widths as its tensors give them (activation aside, which only a config names). */
export function inferPeerMlp(tensors: ReadonlyMap<string, ForeignTensor>, peerPrefix: string, label: string): Omit<TorchMlpLayout, 'activation'> {
  if (tensors.has(`${peerPrefix}.layers.0.weight`)) {
    let blocks = 0;
    while (tensors.has(`${peerPrefix}.layers.${blocks + 1}.l1.weight`)) blocks++;
    const [width, input] = weightShape(tensors, `${peerPrefix}.layers.0.weight`, label);
    const [output] = weightShape(tensors, `${peerPrefix}.layers.${blocks + 1}.weight`, label);
    if (tensors.has(`${peerPrefix}.layers.${blocks + 2}.weight`)) {
      throw new CheckpointError(`${label}: '${peerPrefix}' ends in a LayerNorm (use_layernorm_final), which this build does not import`);
    }
    return { dims: [input, ...Array<number>(1 + 2 * blocks).fill(width), output], residual: true, layerNorm: tensors.has(`${peerPrefix}.layers.1.norm1.weight`) };
  }
  if (!tensors.has(`${peerPrefix}.moduleList.0.linear_1.weight`)) throw new CheckpointError(`${label} has no MLP under '${peerPrefix}' (neither layers.0 nor moduleList.0)`);
  const dims: number[] = [];
  for (let layer = 0; tensors.has(`${peerPrefix}.moduleList.${layer}.linear_1.weight`); layer++) {
    const [output, input] = weightShape(tensors, `${peerPrefix}.moduleList.${layer}.linear_1.weight`, label);
    if (layer === 0) dims.push(input);
    dims.push(output);
  }
  return { dims, residual: false, layerNorm: tensors.has(`${peerPrefix}.moduleList.0.norm_1.weight`) };
}
