import { CheckpointError } from '../../errors';

/**
 * A bounds-checked reader over bytes from an untrusted file: every length the
 * file declares is checked against what is left before anything is allocated.
 */
export class ByteCursor {
  private position = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array, private readonly label: string, private readonly what: string) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.position;
  }

  get atEnd(): boolean {
    return this.position >= this.bytes.length;
  }

  private need(count: number): number {
    if (!Number.isSafeInteger(count) || count < 0 || this.position + count > this.bytes.length) {
      throw new CheckpointError(
        `${this.label}: the ${this.what} ends early: ${count} more bytes are declared at byte ${this.position} but only ${this.bytes.length - this.position} remain.`,
      );
    }
    const start = this.position;
    this.position += count;
    return start;
  }

  u8(): number {
    return this.bytes[this.need(1)];
  }

  u16le(): number {
    return this.view.getUint16(this.need(2), true);
  }

  i32le(): number {
    return this.view.getInt32(this.need(4), true);
  }

  u32le(): number {
    return this.view.getUint32(this.need(4), true);
  }

  /** A little-endian u64 that must fit a safe JS integer (it is a length or a count). */
  u64le(): number {
    const start = this.need(8);
    const low = this.view.getUint32(start, true);
    const high = this.view.getUint32(start + 4, true);
    const value = high * 2 ** 32 + low;
    if (!Number.isSafeInteger(value)) {
      throw new CheckpointError(`${this.label}: the ${this.what} declares a length of ${value} bytes at byte ${start}, far more than the file holds.`);
    }
    return value;
  }

  /** Pickle's BINFLOAT is a big-endian float64. */
  f64be(): number {
    return this.view.getFloat64(this.need(8), false);
  }

  /** A view (no copy) of the next `count` bytes. */
  bytesView(count: number): Uint8Array {
    const start = this.need(count);
    return this.bytes.subarray(start, start + count);
  }

  /** The bytes up to the next newline, newline consumed, as latin-1 text. */
  line(): string {
    const end = this.bytes.indexOf(0x0a, this.position);
    if (end < 0) this.need(this.bytes.length - this.position + 1);
    const text = latin1(this.bytes.subarray(this.position, end));
    this.position = end + 1;
    return text;
  }
}

/** Bytes as latin-1 characters (pickle's text lines and numpy headers are ASCII). */
export function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 4096) {
    text += String.fromCharCode(...bytes.subarray(start, Math.min(bytes.length, start + 4096)));
  }
  return text;
}
