/**
 * A short content hash (64-bit FNV-1a over bytes, as 16 hex digits) for telling versions of a
 * file apart: a task's scene and module in checkpoints. Not for security; the same everywhere.
 */
const OFFSET_HIGH = 0xcbf29ce4;
const OFFSET_LOW = 0x84222325;

export class ContentHash {
  private high = OFFSET_HIGH;
  private low = OFFSET_LOW;

  /** Adds bytes, or text as UTF-8. */
  update(input: Uint8Array | string): this {
    const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
    let { high, low } = this;
    for (let index = 0; index < bytes.length; index++) {
      low ^= bytes[index];
      // × the FNV prime 0x100000001b3, in 32-bit halves: low·0x1b3 with carry, high·0x1b3 + low·0x100.
      const lowProduct = (low & 0xffff) * 0x1b3;
      const lowHighProduct = (low >>> 16) * 0x1b3;
      const newLow = (lowProduct + ((lowHighProduct & 0xffff) << 16)) >>> 0;
      const carry = Math.floor((lowProduct + (lowHighProduct & 0xffff) * 0x10000) / 0x100000000) + (lowHighProduct >>> 16);
      high = (Math.imul(high, 0x1b3) + ((low << 8) >>> 0) + carry) >>> 0;
      low = newLow;
    }
    this.high = high;
    this.low = low;
    return this;
  }

  hex(): string {
    return this.high.toString(16).padStart(8, '0') + this.low.toString(16).padStart(8, '0');
  }
}

/** The hash of several parts; each part's length goes in first, so ['ab', 'c'] and ['a', 'bc'] differ. */
export function contentHash(parts: readonly (Uint8Array | string)[]): string {
  const hash = new ContentHash();
  for (const part of parts) {
    const bytes = typeof part === 'string' ? new TextEncoder().encode(part) : part;
    hash.update(`${bytes.length}:`).update(bytes);
  }
  return hash.hex();
}
