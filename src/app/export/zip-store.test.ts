import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crc32, unzipStored, zipStore } from './zip-store';

/** Reads a stored (method 0) archive back from its central directory, as an unzip tool does. */
function readStored(zip: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = new Map<string, Uint8Array>();
  for (let index = 0; index < count; index++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    expect(view.getUint16(at + 10, true)).toBe(0);
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    expect(view.getUint32(local, true)).toBe(0x04034b50);
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = zip.subarray(dataStart, dataStart + size);
    expect(crc32(data)).toBe(crc);
    files.set(name, data);
    at += 46 + nameLength;
  }
  return files;
}

describe('zipStore', () => {
  it('computes the standard CRC-32 check value', () => {
    // The CRC-32 catalogue's check: crc32("123456789") = 0xCBF43926.
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it('stores each file whole, in order, readable from the central directory', () => {
    const weights = Uint8Array.from({ length: 1000 }, () => Math.floor(Math.random() * 256));
    const zip = zipStore([{ name: 'model.json', data: '{"format":"layers-model"}' }, { name: 'model.weights.bin', data: weights }]);
    const files = readStored(zip);
    expect([...files.keys()]).toEqual(['model.json', 'model.weights.bin']);
    expect(new TextDecoder().decode(files.get('model.json'))).toBe('{"format":"layers-model"}');
    expect(files.get('model.weights.bin')).toEqual(weights);
  });

  it('reads its own archives back, and refuses damaged ones with a sentence', () => {
    const weights = Uint8Array.from({ length: 300 }, (_, index) => (index * 7) % 256);
    const zip = zipStore([{ name: 'model.json', data: '{}' }, { name: 'model.weights.bin', data: weights }]);
    const files = unzipStored(zip) as Map<string, Uint8Array>;
    expect(files.get('model.weights.bin')).toEqual(weights);
    expect(unzipStored(zip.subarray(0, zip.length - 30))).toBe('not a zip archive, or one with a comment or cut short');
    const flipped = zip.slice();
    flipped[100] ^= 0xff;
    expect(unzipStored(flipped)).toBe('its entry model.weights.bin does not match its checksum');
  });

  it('is an archive the unzip tool accepts', () => {
    let unzip = true;
    try {
      execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    } catch {
      unzip = false;
    }
    if (!unzip) return;
    const dir = mkdtempSync(path.join(tmpdir(), 'zip-store-'));
    const file = path.join(dir, 'a.zip');
    writeFileSync(file, zipStore([{ name: 'a.txt', data: 'alpha' }, { name: 'b/é.bin', data: new Uint8Array([1, 2, 3]) }]));
    execFileSync('unzip', ['-tq', file]);
    execFileSync('unzip', ['-oq', file, '-d', dir]);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('alpha');
  });
});
