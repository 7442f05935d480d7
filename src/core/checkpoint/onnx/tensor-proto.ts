import onnxProto from 'onnx-proto';
import { encodeValues } from '../checkpoint-writer';

const { onnx } = onnxProto;

/** A float32 TensorProto with row-major values as little-endian `raw_data`. */
export function floatTensorProto(name: string, data: Float32Array, shape: readonly number[]): onnxProto.onnx.ITensorProto {
  return { name, dims: [...shape], dataType: onnx.TensorProto.DataType.FLOAT, rawData: encodeValues(data, 'F32') };
}

/** An int64 TensorProto (shapes, axes, slice bounds) as little-endian `raw_data`. */
export function int64TensorProto(name: string, values: readonly number[], shape: readonly number[] = [values.length]): onnxProto.onnx.ITensorProto {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setBigInt64(index * 8, BigInt(value), true));
  return { name, dims: [...shape], dataType: onnx.TensorProto.DataType.INT64, rawData: bytes };
}
