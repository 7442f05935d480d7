import { CheckpointError } from '../../errors';
import type { WeightEntry } from '../../policy/flow-policy';
import { isPickleDict, stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { toFloat32, type ForeignTensor } from '../torch/tensor-dtypes';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import type { PeerName } from './peer-mlp-names';
import { transposed, type NamedBytes } from './peer-normalization';

/** The peers' `.pt` read safely: the dict their trainers `torch.save`. */
export function peerTopDict(checkpoint: NamedBytes): PickleDict {
  const value = readTorchCheckpoint(checkpoint.bytes, { label: checkpoint.name });
  if (!isPickleDict(value)) throw new CheckpointError(`${checkpoint.name} does not hold a dict at the top, as ReinFlow's and DPPO's trainers save`);
  return value;
}

/** The state dict under `key` of the top dict, as tensors by name. */
export function peerStateDict(top: PickleDict, key: string, label: string): Map<string, ForeignTensor> {
  const value = top.get(key);
  if (!isPickleDict(value)) throw new CheckpointError(`${label} has no state dict under '${key}'`);
  return stateDictTensors(value);
}

/** A tensor's size along an axis, or the sentence naming the missing tensor. */
export function peerTensorSize(tensors: ReadonlyMap<string, ForeignTensor>, name: string, axis: number, label: string): number {
  const tensor = tensors.get(name);
  if (!tensor) throw new CheckpointError(`${label} has no tensor '${name}'`);
  return tensor.shape[axis];
}

/** Copies the named tensors into our weights, strictly: every name must be there with the shape our layout gives. */
export function takePeerTensors(tensors: ReadonlyMap<string, ForeignTensor>, names: readonly PeerName[], shapes: ReadonlyMap<string, number[]>, label: string, into: Map<string, WeightEntry>): void {
  for (const { peer, ours, transpose } of names) {
    const tensor = tensors.get(peer);
    if (!tensor) throw new CheckpointError(`${label} is missing '${peer}', which the layout its other tensors describe needs`);
    const shape = shapes.get(ours) as number[];
    const peerShape = transpose ? [shape[1], shape[0]] : shape;
    const size = peerShape.reduce((product, dim) => product * dim, 1);
    if (tensor.shape.length !== peerShape.length || tensor.shape.some((dim, axis) => dim !== peerShape[axis]) || tensor.data.length !== size) {
      throw new CheckpointError(`${label}: '${peer}' has shape [${tensor.shape.join(', ')}] where the layout needs [${peerShape.join(', ')}]`);
    }
    const values = toFloat32(tensor);
    if (!values.every(Number.isFinite)) throw new CheckpointError(`${label}: '${peer}' holds a NaN or an infinity`);
    into.set(ours, { shape, data: transpose ? transposed(values, peerShape[0], peerShape[1]) : values });
  }
}

/** Tensors under `roots` that no table entry took: refused as load_state_dict(strict=True) would, naming the layout read. */
export function refusePeerLeftovers(tensors: ReadonlyMap<string, ForeignTensor>, taken: ReadonlySet<string>, roots: readonly string[], label: string, layout: string): void {
  const left = [...tensors.keys()].filter((name) => roots.some((root) => name.startsWith(root)) && !taken.has(name));
  if (left.length > 0) throw new CheckpointError(`${label} holds '${left[0]}'${left.length > 1 ? ` and ${left.length - 1} more` : ''}, which ${layout} this build reads does not have`);
}

/** A counter the trainer saved beside the weights (an int, or a bigint past 2^53); 0 when it is not one. */
export function peerCount(value: unknown): number {
  const number = typeof value === 'bigint' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : 0;
}
