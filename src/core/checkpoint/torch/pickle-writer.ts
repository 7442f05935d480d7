import { CheckpointError } from '../../errors';

/**
 * Every opcode `torch.load(weights_only=True)` accepts in torch 1.13
 * (torch/_weights_only_unpickler.py), by byte; PickleWriter emits no other.
 * Absent on purpose: BINFLOAT (so no float), SHORT_BINUNICODE, MEMOIZE, FRAME and
 * STACK_GLOBAL (protocol 4), LONG4, and the bytes opcodes.
 */
export const WEIGHTS_ONLY_OPCODES: ReadonlyMap<number, string> = new Map([
  [0x80, 'PROTO'], [0x2e, 'STOP'], [0x28, 'MARK'], [0x63, 'GLOBAL'], [0x52, 'REDUCE'], [0x81, 'NEWOBJ'], [0x62, 'BUILD'],
  [0x51, 'BINPERSID'], [0x71, 'BINPUT'], [0x72, 'LONG_BINPUT'], [0x68, 'BINGET'], [0x6a, 'LONG_BINGET'],
  [0x4e, 'NONE'], [0x88, 'NEWTRUE'], [0x89, 'NEWFALSE'], [0x4b, 'BININT1'], [0x4d, 'BININT2'], [0x4a, 'BININT'], [0x8a, 'LONG1'],
  [0x58, 'BINUNICODE'], [0x55, 'SHORT_BINSTRING'], [0x29, 'EMPTY_TUPLE'], [0x85, 'TUPLE1'], [0x86, 'TUPLE2'], [0x87, 'TUPLE3'], [0x74, 'TUPLE'],
  [0x5d, 'EMPTY_LIST'], [0x61, 'APPEND'], [0x65, 'APPENDS'], [0x7d, 'EMPTY_DICT'], [0x73, 'SETITEM'], [0x75, 'SETITEMS'], [0x8f, 'EMPTY_SET'],
]);

const OP = {
  PROTO: 0x80, STOP: 0x2e, MARK: 0x28, GLOBAL: 0x63, REDUCE: 0x52, BINPERSID: 0x51,
  BINPUT: 0x71, LONG_BINPUT: 0x72, BINGET: 0x68, LONG_BINGET: 0x6a,
  NONE: 0x4e, NEWTRUE: 0x88, NEWFALSE: 0x89, BININT1: 0x4b, BININT2: 0x4d, BININT: 0x4a, LONG1: 0x8a, BINUNICODE: 0x58,
  EMPTY_TUPLE: 0x29, TUPLE1: 0x85, TUPLE2: 0x86, TUPLE3: 0x87, TUPLE: 0x74,
  EMPTY_LIST: 0x5d, APPEND: 0x61, APPENDS: 0x65, SETITEM: 0x73, SETITEMS: 0x75,
} as const;

/** Python's pickler batches APPENDS and SETITEMS by this many items. */
export const PICKLE_BATCH_SIZE = 1000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The fewest little-endian two's-complement bytes that hold `value` (Python's encode_long). */
function encodeLong(value: bigint): number[] {
  const bytes: number[] = [];
  let rest = value;
  for (;;) {
    const byte = Number(BigInt.asUintN(8, rest));
    bytes.push(byte);
    rest >>= 8n;
    const signBitSet = (byte & 0x80) !== 0;
    if ((rest === 0n && !signBitSet) || (rest === -1n && signBitSet)) return bytes;
  }
}

/**
 * Writes a protocol-2 pickle opcode by opcode, as Python's pickler lays values
 * out, using only opcodes in WEIGHTS_ONLY_OPCODES. It has no method for a float:
 * BINFLOAT is the opcode torch 1.13's weights_only loader refuses.
 */
export class PickleWriter {
  private bytes = new Uint8Array(256);
  private length = 0;
  private readonly memo = new Map<string, number>();

  constructor(private readonly label: string) {
    this.op(OP.PROTO, 2);
  }

  private op(...codes: number[]): this {
    this.reserve(codes.length);
    this.bytes.set(codes, this.length);
    this.length += codes.length;
    return this;
  }

  private reserve(count: number): void {
    if (this.length + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + count));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  private u32(value: number): number[] {
    return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24];
  }

  mark(): this { return this.op(OP.MARK); }
  none(): this { return this.op(OP.NONE); }
  bool(value: boolean): this { return this.op(value ? OP.NEWTRUE : OP.NEWFALSE); }
  emptyTuple(): this { return this.op(OP.EMPTY_TUPLE); }
  emptyList(): this { return this.op(OP.EMPTY_LIST); }
  reduce(): this { return this.op(OP.REDUCE); }
  persistentId(): this { return this.op(OP.BINPERSID); }
  /** TUPLE1..3 for that many items on the stack, TUPLE (to the last MARK) otherwise; `mark()` first when count > 3. */
  tuple(count: number): this { return this.op(count === 1 ? OP.TUPLE1 : count === 2 ? OP.TUPLE2 : count === 3 ? OP.TUPLE3 : OP.TUPLE); }
  append(): this { return this.op(OP.APPEND); }
  appends(): this { return this.op(OP.APPENDS); }
  setItem(): this { return this.op(OP.SETITEM); }
  setItems(): this { return this.op(OP.SETITEMS); }

  /** An int as Python pickles it: BININT1, BININT2 or BININT where they fit, else LONG1. */
  int(value: number | bigint): this {
    const big = BigInt(value);
    if (big >= 0n && big < 256n) return this.op(OP.BININT1, Number(big));
    if (big >= 0n && big < 65536n) return this.op(OP.BININT2, Number(big) & 0xff, Number(big) >> 8);
    if (big >= -(2n ** 31n) && big < 2n ** 31n) return this.op(OP.BININT, ...this.u32(Number(big) >>> 0));
    const encoded = encodeLong(big);
    if (encoded.length > 255) {
      throw new CheckpointError(`${this.label}: an integer of ${encoded.length} bytes is longer than LONG1 holds, and LONG4 is refused by torch's weights_only loader.`);
    }
    return this.op(OP.LONG1, encoded.length, ...encoded);
  }

  /** A str as BINUNICODE (UTF-8); a lone surrogate has no UTF-8 form and is refused. */
  unicode(text: string): this {
    if (LONE_SURROGATE.test(text)) throw new CheckpointError(`${this.label}: the string '${text.slice(0, 40)}' holds a lone surrogate, which has no UTF-8 form.`);
    const encoded = new TextEncoder().encode(text);
    this.op(OP.BINUNICODE, ...this.u32(encoded.length));
    this.reserve(encoded.length);
    this.bytes.set(encoded, this.length);
    this.length += encoded.length;
    return this;
  }

  /** GLOBAL 'module\nname\n', written once and fetched from the memo after. */
  global(module: string, name: string): this {
    return this.memoized(`global:${module}.${name}`, () => {
      this.op(OP.GLOBAL, ...new TextEncoder().encode(`${module}\n${name}\n`));
    });
  }

  /** A str written once and fetched from the memo after (torch's 'storage' and 'cpu'). */
  sharedUnicode(text: string): this {
    return this.memoized(`str:${text}`, () => this.unicode(text));
  }

  private memoized(key: string, write: () => void): this {
    const index = this.memo.get(key);
    if (index !== undefined) return index < 256 ? this.op(OP.BINGET, index) : this.op(OP.LONG_BINGET, ...this.u32(index));
    write();
    const slot = this.memo.size;
    this.memo.set(key, slot);
    return slot < 256 ? this.op(OP.BINPUT, slot) : this.op(OP.LONG_BINPUT, ...this.u32(slot));
  }

  /** STOP, and the pickle's bytes. */
  finish(): Uint8Array {
    this.op(OP.STOP);
    return this.bytes.slice(0, this.length);
  }
}
