import onnxProto from 'onnx-proto';
import { floatTensorProto, int64TensorProto } from './tensor-proto';

const { onnx } = onnxProto;

/** A node attribute: one int, a list of ints, or one float. */
export type OnnxAttribute = { int: number } | { ints: readonly number[] } | { float: number };

/** Element types a graph input or output may have. */
export type GraphElemType = 'float32' | 'uint8';

/** One graph input or output: a tensor (float32 unless `elemType` says otherwise) whose dims are sizes or named (dynamic) axes. */
export interface GraphValue {
  name: string;
  dims: readonly (number | string)[];
  elemType?: GraphElemType;
}

const ELEM_TYPES: Readonly<Record<GraphElemType, number>> = {
  float32: onnx.TensorProto.DataType.FLOAT,
  uint8: onnx.TensorProto.DataType.UINT8,
};

function attributeProto(name: string, value: OnnxAttribute): onnxProto.onnx.IAttributeProto {
  const { AttributeType } = onnx.AttributeProto;
  if ('int' in value) return { name, type: AttributeType.INT, i: value.int };
  if ('ints' in value) return { name, type: AttributeType.INTS, ints: [...value.ints] };
  return { name, type: AttributeType.FLOAT, f: value.float };
}

function valueInfo(value: GraphValue): onnxProto.onnx.IValueInfoProto {
  const dim = value.dims.map((size) => (typeof size === 'number' ? { dimValue: size } : { dimParam: size }));
  return { name: value.name, type: { tensorType: { elemType: ELEM_TYPES[value.elemType ?? 'float32'], shape: { dim } } } };
}

/**
 * Collects the nodes and initializers of one ONNX graph. Every value gets a fresh name from a
 * readable hint; small int64 constants (shapes, axes) are shared, so each is stored once.
 */
export class GraphBuilder {
  private readonly nodes: onnxProto.onnx.INodeProto[] = [];
  private readonly initializers: onnxProto.onnx.ITensorProto[] = [];
  private readonly usedNames = new Set<string>();
  private readonly sharedConstants = new Map<string, string>();

  /** `hint`, or `hint_2`, `hint_3`, ... when taken. */
  freshName(hint: string): string {
    let name = hint;
    for (let suffix = 2; this.usedNames.has(name); suffix++) name = `${hint}_${suffix}`;
    this.usedNames.add(name);
    return name;
  }

  /** Reserves a graph input's name, so no node output takes it. */
  input(name: string): string {
    if (this.usedNames.has(name)) throw new RangeError(`graph value '${name}' is already defined`);
    this.usedNames.add(name);
    return name;
  }

  /** A float32 initializer [shape]; returns its name. */
  floatTensor(hint: string, data: Float32Array, shape: readonly number[]): string {
    const name = this.freshName(hint);
    this.initializers.push(floatTensorProto(name, data, shape));
    return name;
  }

  /** A float32 scalar initializer, shared by every use of the same float32 value. */
  floatScalar(value: number): string {
    const rounded = Math.fround(value);
    return this.shared(`f32:${Object.is(rounded, -0) ? '-0' : String(rounded)}`, 'scalar', (name) => floatTensorProto(name, Float32Array.of(rounded), []));
  }

  /** An int64 vector initializer (a shape, axes or slice bounds), shared by equal vectors. */
  int64s(values: readonly number[]): string {
    return this.shared(`i64:${values.join(',')}`, 'ints', (name) => int64TensorProto(name, values));
  }

  private shared(key: string, hint: string, make: (name: string) => onnxProto.onnx.ITensorProto): string {
    const existing = this.sharedConstants.get(key);
    if (existing) return existing;
    const name = this.freshName(hint);
    this.initializers.push(make(name));
    this.sharedConstants.set(key, name);
    return name;
  }

  /** Adds one node with one output; returns the output's name. */
  op(opType: string, inputs: readonly string[], attributes: Readonly<Record<string, OnnxAttribute>> = {}, hint = opType.toLowerCase()): string {
    return this.opOutputs(opType, inputs, 1, attributes, hint)[0];
  }

  /** Adds one node with `outputCount` outputs (Split); returns their names. */
  opOutputs(opType: string, inputs: readonly string[], outputCount: number, attributes: Readonly<Record<string, OnnxAttribute>> = {}, hint = opType.toLowerCase()): string[] {
    const outputs = Array.from({ length: outputCount }, () => this.freshName(hint));
    this.nodes.push({
      name: this.freshName(`${opType}_node`),
      opType,
      input: [...inputs],
      output: outputs,
      attribute: Object.entries(attributes).map(([name, value]) => attributeProto(name, value)),
    });
    return outputs;
  }

  /** Renames the value `from` to the graph output `to` (an Identity node). */
  output(from: string, to: string): void {
    if (this.usedNames.has(to)) throw new RangeError(`graph value '${to}' is already defined`);
    this.usedNames.add(to);
    this.nodes.push({ name: this.freshName('Identity_node'), opType: 'Identity', input: [from], output: [to] });
  }

  /** The finished GraphProto. */
  graph(name: string, inputs: readonly GraphValue[], outputs: readonly GraphValue[], docString = ''): onnxProto.onnx.IGraphProto {
    return {
      name,
      docString,
      node: this.nodes,
      initializer: this.initializers,
      input: inputs.map(valueInfo),
      output: outputs.map(valueInfo),
    };
  }
}
