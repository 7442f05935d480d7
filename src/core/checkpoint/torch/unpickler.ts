import { CheckpointError } from '../../errors';
import { ByteCursor, latin1 } from './byte-cursor';
import { describeType, type PickleDict, type PickleValue } from './pickle-values';

/** How the unpickler resolves what the file names; each hook refuses what it does not allow. */
export interface UnpickleHooks {
  /** File name for error sentences. */
  readonly label: string;
  /** GLOBAL / STACK_GLOBAL: an allowed tag, or a thrown refusal. */
  findGlobal(module: string, name: string): PickleValue;
  /** REDUCE / NEWOBJ of a value findGlobal returned. */
  call(callable: PickleValue, args: PickleValue): PickleValue;
  /** BINPERSID: torch's reference to a storage. */
  persistentLoad(pid: PickleValue): PickleValue;
}

/** Opcodes that would build arbitrary objects or need machinery a state dict never uses, by name for the refusal. */
const REFUSED: Readonly<Record<number, string>> = {
  0x69: 'INST', 0x6f: 'OBJ', 0x50: 'PERSID', 0x82: 'EXT1', 0x83: 'EXT2', 0x84: 'EXT4',
  0x97: 'NEXT_BUFFER', 0x98: 'READONLY_BUFFER', 0x53: 'STRING', 0x56: 'UNICODE',
  0x8f: 'EMPTY_SET', 0x90: 'ADDITEMS', 0x91: 'FROZENSET',
};

const utf8 = new TextDecoder('utf-8');

/** A little-endian two's-complement integer of any length (LONG1, LONG4). */
function decodeLong(bytes: Uint8Array): number | bigint {
  let value = 0n;
  for (let index = bytes.length - 1; index >= 0; index--) value = (value << 8n) | BigInt(bytes[index]);
  if (bytes.length > 0 && bytes[bytes.length - 1] & 0x80) value -= 1n << BigInt(8 * bytes.length);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/**
 * A restricted unpickler (protocols 0 to 5, as far as torch.save writes them):
 * it builds plain values only. Globals go through `hooks.findGlobal`, calls
 * through `hooks.call`; no opcode can reach code, a module or an attribute.
 */
export function unpickle(bytes: Uint8Array, hooks: UnpickleHooks): PickleValue {
  const { label } = hooks;
  const cursor = new ByteCursor(bytes, label, 'pickle');
  const stack: PickleValue[] = [];
  const marks: number[] = [];
  const memo = new Map<number, PickleValue>();
  const fail = (message: string): never => {
    throw new CheckpointError(`${label}: ${message}`);
  };
  const pop = (): PickleValue => (stack.length > 0 ? (stack.pop() as PickleValue) : fail('the pickle is malformed: it pops from an empty stack.'));
  const top = (): PickleValue => (stack.length > 0 ? stack[stack.length - 1] : fail('the pickle is malformed: it reads an empty stack.'));
  const popMark = (): PickleValue[] => {
    const start = marks.pop() ?? fail('the pickle is malformed: it closes a MARK that was never opened.');
    return stack.splice(start);
  };
  const tuple = (items: PickleValue[]): PickleValue => Object.freeze(items) as PickleValue[];
  const list = (): PickleValue[] => {
    const target = top();
    if (!Array.isArray(target) || Object.isFrozen(target)) fail(`the pickle appends to a ${describeType(target)}, which is not a list.`);
    return target as PickleValue[];
  };
  const dict = (target: PickleValue): PickleDict =>
    target instanceof Map ? target : fail(`the pickle sets an item on a ${describeType(target)}, which is not a dict.`);
  const text = (count: number): string => utf8.decode(cursor.bytesView(count));
  const get = (index: number): PickleValue => (memo.has(index) ? (memo.get(index) as PickleValue) : fail(`the pickle reads memo entry ${index}, which was never stored.`));

  for (;;) {
    const at = cursor.offset;
    const opcode = cursor.u8();
    switch (opcode) {
      case 0x80: cursor.u8(); break; // PROTO
      case 0x95: cursor.u64le(); break; // FRAME: a length hint only
      case 0x2e: return pop(); // STOP
      case 0x28: marks.push(stack.length); break; // MARK
      case 0x30: pop(); break; // POP
      case 0x31: popMark(); break; // POP_MARK
      case 0x32: stack.push(top()); break; // DUP
      case 0x4e: stack.push(null); break; // NONE
      case 0x88: stack.push(true); break; // NEWTRUE
      case 0x89: stack.push(false); break; // NEWFALSE
      case 0x4b: stack.push(cursor.u8()); break; // BININT1
      case 0x4d: stack.push(cursor.u16le()); break; // BININT2
      case 0x4a: stack.push(cursor.i32le()); break; // BININT
      case 0x8a: stack.push(decodeLong(cursor.bytesView(cursor.u8()))); break; // LONG1
      case 0x8b: { // LONG4
        const count = cursor.i32le();
        if (count < 0 || count > 4096) fail(`the pickle declares an integer of ${count} bytes, beyond any a state dict holds.`);
        stack.push(decodeLong(cursor.bytesView(count)));
        break;
      }
      case 0x49: { // INT (protocol 0 text; "01"/"00" are True/False)
        const line = cursor.line();
        stack.push(line === '01' ? true : line === '00' ? false : decodeTextLong(line, fail));
        break;
      }
      case 0x4c: stack.push(decodeTextLong(cursor.line(), fail)); break; // LONG (text)
      case 0x46: stack.push(Number.parseFloat(cursor.line())); break; // FLOAT (text)
      case 0x47: stack.push(cursor.f64be()); break; // BINFLOAT
      case 0x58: stack.push(text(cursor.u32le())); break; // BINUNICODE
      case 0x8c: stack.push(text(cursor.u8())); break; // SHORT_BINUNICODE
      case 0x8d: stack.push(text(cursor.u64le())); break; // BINUNICODE8
      case 0x54: stack.push(latin1(cursor.bytesView(cursor.i32le()))); break; // BINSTRING
      case 0x55: stack.push(latin1(cursor.bytesView(cursor.u8()))); break; // SHORT_BINSTRING
      case 0x42: stack.push(cursor.bytesView(cursor.u32le()).slice()); break; // BINBYTES
      case 0x43: stack.push(cursor.bytesView(cursor.u8()).slice()); break; // SHORT_BINBYTES
      case 0x8e: case 0x96: stack.push(cursor.bytesView(cursor.u64le()).slice()); break; // BINBYTES8, BYTEARRAY8
      case 0x7d: stack.push(new Map()); break; // EMPTY_DICT
      case 0x5d: stack.push([]); break; // EMPTY_LIST
      case 0x29: stack.push(tuple([])); break; // EMPTY_TUPLE
      case 0x85: stack.push(tuple([pop()])); break; // TUPLE1
      case 0x86: { const second = pop(); stack.push(tuple([pop(), second])); break; } // TUPLE2
      case 0x87: { const third = pop(); const second = pop(); stack.push(tuple([pop(), second, third])); break; } // TUPLE3
      case 0x74: stack.push(tuple(popMark())); break; // TUPLE
      case 0x6c: stack.push(popMark()); break; // LIST
      case 0x64: stack.push(pairsToDict(popMark(), fail)); break; // DICT
      case 0x61: { const item = pop(); list().push(item); break; } // APPEND
      case 0x65: { // APPENDS (a loop: spreading a huge batch into push() would overflow the call stack)
        const items = popMark();
        const target = list();
        for (const item of items) target.push(item);
        break;
      }
      case 0x73: { const value = pop(); const key = pop(); dict(top()).set(key, value); break; } // SETITEM
      case 0x75: { // SETITEMS
        const items = popMark();
        if (items.length % 2 !== 0) fail('the pickle is malformed: SETITEMS has a key without a value.');
        const target = dict(top());
        for (let index = 0; index < items.length; index += 2) target.set(items[index], items[index + 1]);
        break;
      }
      case 0x71: memo.set(cursor.u8(), top()); break; // BINPUT
      case 0x72: memo.set(cursor.u32le(), top()); break; // LONG_BINPUT
      case 0x94: memo.set(memo.size, top()); break; // MEMOIZE
      case 0x70: memo.set(Number.parseInt(cursor.line(), 10), top()); break; // PUT
      case 0x68: stack.push(get(cursor.u8())); break; // BINGET
      case 0x6a: stack.push(get(cursor.u32le())); break; // LONG_BINGET
      case 0x67: stack.push(get(Number.parseInt(cursor.line(), 10))); break; // GET
      case 0x63: { const module = cursor.line(); stack.push(hooks.findGlobal(module, cursor.line())); break; } // GLOBAL
      case 0x93: { // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof name !== 'string') fail('the pickle names a global with a module or name that is not a string.');
        stack.push(hooks.findGlobal(module as string, name as string));
        break;
      }
      case 0x52: case 0x81: { const args = pop(); stack.push(hooks.call(pop(), args)); break; } // REDUCE, NEWOBJ
      case 0x92: { // NEWOBJ_EX
        const kwargs = pop();
        const args = pop();
        if (!(kwargs instanceof Map) || kwargs.size > 0) fail('the pickle builds an object with keyword arguments, which a state dict never needs.');
        stack.push(hooks.call(pop(), args));
        break;
      }
      case 0x62: { // BUILD
        const state = pop();
        const target = top();
        // torch's state dicts carry `_metadata` (per-module versions) as OrderedDict attributes; we keep only the items.
        if (!(target instanceof Map) || !(state instanceof Map || state === null)) {
          fail(`the pickle sets the state of a ${describeType(target)} to a ${describeType(state)}, which a state dict never needs.`);
        }
        break;
      }
      case 0x51: stack.push(hooks.persistentLoad(pop())); break; // BINPERSID
      default: {
        const name = REFUSED[opcode];
        fail(name
          ? `the pickle uses the opcode ${name} at byte ${at}, which a state dict never needs; refusing to load it.`
          : `the pickle holds an unknown opcode 0x${opcode.toString(16).padStart(2, '0')} at byte ${at}; it is corrupt or not a pickle.`);
      }
    }
  }
}

function decodeTextLong(line: string, fail: (message: string) => never): number | bigint {
  const digits = line.endsWith('L') ? line.slice(0, -1) : line;
  if (!/^[-+]?\d{1,4096}$/.test(digits)) fail('the pickle holds a malformed integer.');
  const value = BigInt(digits);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

function pairsToDict(items: PickleValue[], fail: (message: string) => never): PickleDict {
  if (items.length % 2 !== 0) fail('the pickle is malformed: DICT has a key without a value.');
  const dict: PickleDict = new Map();
  for (let index = 0; index < items.length; index += 2) dict.set(items[index], items[index + 1]);
  return dict;
}
