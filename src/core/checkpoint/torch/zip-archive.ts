import { unzipSync } from 'fflate';
import { CheckpointError } from '../../errors';

/** Default ceiling on the bytes a zip may unpack to: well above any policy checkpoint, far below a hostile allocation. */
export const DEFAULT_MAX_UNZIPPED_BYTES = 512 * 1024 * 1024;

/** Deflate cannot expand more than about 1032:1, so a larger declared size is a lie. */
const MAX_DEFLATE_RATIO = 1032;

export interface ZipReadOptions {
  /** Total uncompressed bytes allowed across the entries read. */
  readonly maxBytes?: number;
  /** Reads only entries this accepts (all when absent). */
  readonly accept?: (name: string) => boolean;
}

/**
 * The entries of a zip archive (fflate does the zip and inflate work). Sizes the
 * archive declares are checked before fflate allocates them, and each entry
 * must come out at exactly its declared size.
 */
export function readZipEntries(bytes: Uint8Array, label: string, options: ZipReadOptions = {}): Map<string, Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_UNZIPPED_BYTES;
  const isZip = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
  if (!isZip) {
    throw new CheckpointError(`${label}: is not a zip archive (torch.save since PyTorch 1.6 and numpy's savez both write zips).`);
  }
  const declared = new Map<string, number>();
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        if (options.accept && !options.accept(file.name)) return false;
        if (file.compression !== 0 && file.compression !== 8) {
          throw new CheckpointError(`${label}: the zip entry '${file.name}' uses compression method ${file.compression}; only stored and deflate entries are read.`);
        }
        const tooLarge = file.compression === 0 ? file.originalSize !== file.size : file.originalSize > file.size * MAX_DEFLATE_RATIO + 64;
        if (tooLarge) {
          throw new CheckpointError(`${label}: the zip entry '${file.name}' declares ${file.originalSize} bytes from ${file.size} stored bytes, which is impossible; the archive is corrupt.`);
        }
        total += file.originalSize;
        if (total > maxBytes) {
          throw new CheckpointError(`${label}: the archive unpacks to more than ${maxBytes} bytes (the limit for one file); refusing to allocate it.`);
        }
        declared.set(file.name, file.originalSize);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof CheckpointError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new CheckpointError(`${label}: is not a complete zip archive (truncated or corrupt: ${reason}).`);
  }
  const entries = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(files)) {
    if (data.length !== declared.get(name)) {
      throw new CheckpointError(`${label}: the zip entry '${name}' holds ${data.length} bytes where the archive declares ${declared.get(name)}; the file is truncated or corrupt.`);
    }
    entries.set(name, data);
  }
  return entries;
}
