import { zipSync, type ZipOptions } from 'fflate';
import { CheckpointError } from '../../errors';

/** The extra-field id torch's writer (miniz, via PyTorchStreamWriter) pads with: 'FB', then 'Z' bytes. */
const PADDING_FIELD_ID = 0x4246;
const PADDING_BYTE = 0x5a;
/** A local file header before its name and extra field (zip spec 4.3.7). */
const LOCAL_HEADER_BYTES = 30;
/** A central directory entry before its name and extra field (4.3.12), and the end record (4.3.16). */
const CENTRAL_HEADER_BYTES = 46;
const END_RECORD_BYTES = 22;
/** Without zip64 records, offsets and sizes are 32-bit and entries number at most 65,535. */
const MAX_ZIP32_BYTES = 0xffff_ffff;
const MAX_ZIP32_ENTRIES = 0xffff;
/** zip times are DOS dates, which start in 1980; a fixed one keeps equal inputs byte-identical. */
const FIXED_MTIME = new Date(1980, 0, 1);

export interface StoredZipOptions {
  /** Each entry's data starts at a multiple of this (torch aligns storages to 64 bytes); 1 when absent. */
  readonly alignment?: number;
}

/**
 * A zip of stored (uncompressed) entries, in the given order. fflate writes the
 * zip (`level: 0` stores); alignment comes from the padding extra field torch
 * uses, sized here from each local header's offset, which is fixed for stored
 * entries: 30 bytes, the name, the extra field, the data. The result's length is
 * checked against that layout, so a change in fflate's layout cannot pass silently.
 */
export function writeStoredZip(entries: ReadonlyArray<readonly [string, Uint8Array]>, label: string, options: StoredZipOptions = {}): Uint8Array {
  const alignment = options.alignment ?? 1;
  if (!Number.isInteger(alignment) || alignment < 1 || alignment > 0x8000) {
    throw new CheckpointError(`${label}: a zip alignment of ${alignment} is not a whole number of bytes from 1 to 32768.`);
  }
  if (entries.length > MAX_ZIP32_ENTRIES) {
    throw new CheckpointError(`${label}: ${entries.length} zip entries are more than a zip without zip64 records holds (${MAX_ZIP32_ENTRIES}).`);
  }
  const encoder = new TextEncoder();
  const files: Record<string, [Uint8Array, ZipOptions]> = {};
  let offset = 0;
  let centralBytes = 0;
  for (const [name, data] of entries) {
    if (Object.hasOwn(files, name)) throw new CheckpointError(`${label}: the zip entry '${name}' is written twice.`);
    const nameBytes = encoder.encode(name).length;
    const headerBytes = LOCAL_HEADER_BYTES + nameBytes;
    const padding = alignment > 1 ? (alignment - ((offset + headerBytes + 4) % alignment)) % alignment : 0;
    const extra = alignment > 1 ? { [PADDING_FIELD_ID]: new Uint8Array(padding).fill(PADDING_BYTE) } : undefined;
    const extraBytes = extra ? 4 + padding : 0;
    files[name] = [data, { level: 0, mtime: FIXED_MTIME, extra }];
    offset += headerBytes + extraBytes + data.length;
    // fflate repeats the extra field in the central directory.
    centralBytes += CENTRAL_HEADER_BYTES + nameBytes + extraBytes;
  }
  const total = offset + centralBytes + END_RECORD_BYTES;
  if (total > MAX_ZIP32_BYTES) {
    throw new CheckpointError(`${label}: the archive would be ${total} bytes, more than a zip without zip64 records holds (4 GiB).`);
  }
  const zip = zipSync(files);
  if (zip.length !== total) {
    throw new CheckpointError(`${label}: the zip came out ${zip.length} bytes where its layout gives ${total}; its entries would not be aligned.`);
  }
  return zip;
}
