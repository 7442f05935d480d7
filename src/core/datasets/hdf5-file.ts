/**
 * An HDF5 file read from memory with h5wasm, the HDF Group's C library compiled to wasm
 * (DESIGN.md §18: a kept library, not a parser of our own). The bytes go into the library's
 * in-memory file system under a name of ours, never the host's disk, and are removed on close.
 * h5wasm (about 4 MB) is loaded on first use, so a host pays for it only when an HDF5 file comes.
 * Every array is size-checked before it is read; every failure is one DemosError naming the file.
 */
import type { Dataset, File as H5File, Group } from 'h5wasm';
import { DemosError } from '../errors';
import { MAX_DATASET_ARRAY_BYTES, MAX_DATASET_FILE_BYTES } from './dataset-limits';

type H5Library = typeof import('h5wasm').default;
type H5Module = Awaited<H5Library['ready']>;

let library: Promise<{ h5: H5Library; module: H5Module }> | undefined;

function loadLibrary(): Promise<{ h5: H5Library; module: H5Module }> {
  library ??= import('h5wasm').then(async ({ default: h5 }) => {
    const module = await h5.ready;
    // HDF5 errors become exceptions with the library's message, instead of text on stderr.
    module.activate_throwing_error_handler();
    return { h5, module };
  }).catch((error: unknown) => {
    library = undefined;
    throw new DemosError(`the HDF5 reader (h5wasm) could not start: ${(error as Error).message}`);
  });
  return library;
}

/** The HDF5 library's reason, shortened to the one line that says what went wrong. */
export function hdf5Reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const details = [...text.matchAll(/line \d+ in [\w.]+\(\): ([^\n]+)/g)].map((match) => match[1].trim());
  return details.at(-1) ?? (text.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'unknown error');
}

/** HDF5 type classes that hold numbers: integer, float, and enum (h5py's bool). */
const NUMERIC_CLASSES = new Set([0, 1, 8]);
const STRING_CLASS = 3;

let opened = 0;

export class Hdf5File {
  private constructor(
    private readonly h5: H5Library,
    private readonly module: H5Module,
    private readonly file: H5File,
    private readonly memoryPath: string,
    /** The file's name, for refusals. */
    readonly label: string,
  ) {}

  /** Opens `bytes` read-only; refuses a file over the size cap, or one HDF5 cannot open (cut short, corrupt). */
  static async open(bytes: Uint8Array, label: string): Promise<Hdf5File> {
    if (bytes.length > MAX_DATASET_FILE_BYTES) {
      throw new DemosError(`${label} is ${bytes.length} bytes, over the ${MAX_DATASET_FILE_BYTES}-byte limit for a dataset read in memory`);
    }
    const { h5, module } = await loadLibrary();
    const memoryPath = `/flowtune-dataset-${++opened}.h5`;
    module.FS.writeFile(memoryPath, bytes);
    try {
      return new Hdf5File(h5, module, new h5.File(memoryPath, 'r'), memoryPath, label);
    } catch (error) {
      module.FS.unlink(memoryPath);
      const text = error instanceof Error ? error.message : String(error);
      const cut = /truncated file: eof = (\d+).*stored_eof = (\d+)/.exec(text);
      if (cut) throw new DemosError(`${label} is cut short: it holds ${cut[1]} bytes where its HDF5 superblock says ${cut[2]}, so it was not copied whole`);
      throw new DemosError(`${label} cannot be read as HDF5 (${hdf5Reason(error)})`);
    }
  }

  close(): void {
    try {
      this.file.close();
    } finally {
      this.module.FS.unlink(this.memoryPath);
    }
  }

  private entity(path: string): unknown {
    try {
      return this.file.get(path);
    } catch {
      return null;
    }
  }

  /** What is at `path`: a group, a dataset, something else (a link, a named type), or nothing. */
  kind(path: string): 'group' | 'dataset' | 'other' | undefined {
    const entity = this.entity(path);
    if (entity === null || entity === undefined) return undefined;
    if (entity instanceof this.h5.Dataset) return 'dataset';
    if (entity instanceof this.h5.Group) return 'group';
    return 'other';
  }

  /** The names in the group at `path` ('/' for the top), in the file's order; [] when it is no group. */
  keys(path: string): string[] {
    const entity = this.entity(path);
    return entity instanceof this.h5.Group ? (entity as Group).keys() : [];
  }

  private dataset(path: string): Dataset {
    const entity = this.entity(path);
    if (!(entity instanceof this.h5.Dataset)) throw new DemosError(`${this.label} has no dataset '${path}'`);
    return entity as Dataset;
  }

  /** The shape of the dataset at `path` ([] for a scalar). */
  shape(path: string): number[] {
    return this.dataset(path).metadata.shape ?? [];
  }

  /** The numbers (integers, floats or booleans) of the dataset at `path`, row-major, as float32. */
  numbers(path: string): { shape: number[]; data: Float32Array } {
    const dataset = this.dataset(path);
    const metadata = dataset.metadata;
    if (metadata.vlen || !NUMERIC_CLASSES.has(metadata.type) || metadata.size > 8) {
      throw new DemosError(`${this.label}'s '${path}' does not hold plain numbers (HDF5 type class ${metadata.type}, ${metadata.size} bytes${metadata.vlen ? ', variable length' : ''})`);
    }
    const shape = metadata.shape ?? [];
    const count = shape.reduce((product, size) => product * size, 1);
    if (count * metadata.size > MAX_DATASET_ARRAY_BYTES) {
      throw new DemosError(`${this.label}'s '${path}' of shape [${shape.join(', ')}] is ${count * metadata.size} bytes, over the ${MAX_DATASET_ARRAY_BYTES}-byte limit for one array`);
    }
    const value = this.read(dataset, path);
    const data = value instanceof Float32Array ? value
      : ArrayBuffer.isView(value) && !(value instanceof DataView) ? Float32Array.from(value as unknown as ArrayLike<number | bigint>, Number)
        : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? Float32Array.of(Number(value)) : undefined;
    if (!data || data.length !== count) throw new DemosError(`${this.label}'s '${path}' did not read as ${count} numbers`);
    return { shape, data };
  }

  /** The strings of the dataset at `path` (a scalar gives one). */
  strings(path: string): string[] {
    const dataset = this.dataset(path);
    const metadata = dataset.metadata;
    if (metadata.type !== STRING_CLASS) throw new DemosError(`${this.label}'s '${path}' does not hold strings`);
    const count = (metadata.shape ?? []).reduce((product, size) => product * size, 1);
    if (count * Math.max(1, metadata.size) > MAX_DATASET_ARRAY_BYTES) throw new DemosError(`${this.label}'s '${path}' is over the ${MAX_DATASET_ARRAY_BYTES}-byte limit for one array`);
    const value = this.read(dataset, path);
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((item) => typeof item === 'string')) throw new DemosError(`${this.label}'s '${path}' did not read as strings`);
    return values as string[];
  }

  private read(dataset: Dataset, path: string): unknown {
    try {
      return dataset.value;
    } catch (error) {
      throw new DemosError(`${this.label}'s '${path}' cannot be read (${hdf5Reason(error)}); the file may be damaged`);
    }
  }
}
