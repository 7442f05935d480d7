/**
 * A ZIP archive of whole files, stored without compression (method 0), so one download can carry
 * a tfjs model.json and its weights. Format: PKWARE APPNOTE 4.3 (local headers, central
 * directory, end record); names are UTF-8 (flag bit 11), sizes below 4 GiB (no ZIP64).
 */

export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    table[byte] = crc >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, reflected), as ZIP stores it. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const UTF8_NAMES = 0x0800;
/** 1980-01-01 00:00 in MS-DOS date and time: the archive does not depend on the clock. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END_RECORD = 22;

/** The archive's bytes; entries keep their order. */
export function zipStore(entries: readonly ZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const files = entries.map((entry) => {
    const name = encoder.encode(entry.name);
    const data = typeof entry.data === 'string' ? encoder.encode(entry.data) : entry.data;
    return { name, data, crc: crc32(data) };
  });
  const localSize = files.reduce((sum, file) => sum + LOCAL_HEADER + file.name.length + file.data.length, 0);
  const centralSize = files.reduce((sum, file) => sum + CENTRAL_HEADER + file.name.length, 0);
  const out = new Uint8Array(localSize + centralSize + END_RECORD);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (value: number) => { view.setUint16(at, value, true); at += 2; };
  const u32 = (value: number) => { view.setUint32(at, value >>> 0, true); at += 4; };
  const bytes = (value: Uint8Array) => { out.set(value, at); at += value.length; };
  // Version, flags, method, time, date, CRC, sizes: shared by both headers.
  const common = (file: (typeof files)[number]) => {
    u16(20); u16(UTF8_NAMES); u16(0); u16(DOS_TIME); u16(DOS_DATE);
    u32(file.crc); u32(file.data.length); u32(file.data.length); u16(file.name.length);
  };
  const offsets: number[] = [];
  for (const file of files) {
    offsets.push(at);
    u32(0x04034b50); common(file); u16(0); bytes(file.name); bytes(file.data);
  }
  const centralStart = at;
  files.forEach((file, index) => {
    u32(0x02014b50); u16(20); common(file);
    u16(0); u16(0); u16(0); u16(0); u32(0); u32(offsets[index]); bytes(file.name);
  });
  u32(0x06054b50); u16(0); u16(0); u16(files.length); u16(files.length);
  u32(centralSize); u32(centralStart); u16(0);
  return out;
}

/**
 * The files of a stored archive (as zipStore writes it), by name, read from its central
 * directory; a sentence when it is not one (compressed entries, a cut-short or foreign file).
 */
export function unzipStored(zip: Uint8Array): Map<string, Uint8Array> | string {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - END_RECORD;
  if (end < 0 || view.getUint32(end, true) !== 0x06054b50) return 'not a zip archive, or one with a comment or cut short';
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = new Map<string, Uint8Array>();
  const decoder = new TextDecoder();
  for (let index = 0; index < count; index++) {
    if (at + CENTRAL_HEADER > end || view.getUint32(at, true) !== 0x02014b50) return 'its central directory is damaged';
    if (view.getUint16(at + 10, true) !== 0) return 'its files are compressed: unzip it and drop the model.json with its .bin';
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + CENTRAL_HEADER, at + CENTRAL_HEADER + nameLength));
    if (local + LOCAL_HEADER > end || view.getUint32(local, true) !== 0x04034b50) return `its entry ${name} is damaged`;
    const dataStart = local + LOCAL_HEADER + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (dataStart + size > end) return `its entry ${name} is cut short`;
    const data = zip.slice(dataStart, dataStart + size);
    if (crc32(data) !== view.getUint32(at + 16, true)) return `its entry ${name} does not match its checksum`;
    files.set(name, data);
    at += CENTRAL_HEADER + nameLength + extraLength + commentLength;
  }
  return files;
}
