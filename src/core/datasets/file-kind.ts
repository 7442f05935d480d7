/**
 * What a dataset file is, from its first bytes rather than its name: HDF5 (D4RL, robomimic) by
 * its signature, which may follow a user block of 512, 1024, 2048, … bytes; a zip (numpy's
 * `.npz`) by its local-file or end-of-archive record.
 */

const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

function signatureAt(bytes: Uint8Array, offset: number): boolean {
  return offset + HDF5_SIGNATURE.length <= bytes.length && HDF5_SIGNATURE.every((byte, index) => bytes[offset + index] === byte);
}

export type DatasetFileKind = 'hdf5' | 'zip';

export function datasetFileKind(bytes: Uint8Array): DatasetFileKind | undefined {
  if (signatureAt(bytes, 0)) return 'hdf5';
  for (let offset = 512; offset + HDF5_SIGNATURE.length <= bytes.length; offset *= 2) {
    if (signatureAt(bytes, offset)) return 'hdf5';
  }
  const isZip = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
  return isZip ? 'zip' : undefined;
}
