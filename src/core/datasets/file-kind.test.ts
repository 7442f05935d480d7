import { describe, expect, it } from 'vitest';
import { datasetFileKind } from './file-kind';

const SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

describe('datasetFileKind', () => {
  it('tells HDF5 by its signature, also after a user block, and a zip by its header; not by the name', () => {
    expect(datasetFileKind(Uint8Array.from([...SIGNATURE, 0, 0]))).toBe('hdf5');
    const withUserBlock = new Uint8Array(1024 + 16);
    withUserBlock.set(SIGNATURE, 1024);
    expect(datasetFileKind(withUserBlock)).toBe('hdf5');
    const offBoundary = new Uint8Array(800 + 16);
    offBoundary.set(SIGNATURE, 800);
    expect(datasetFileKind(offBoundary)).toBeUndefined();
    expect(datasetFileKind(Uint8Array.from([0x50, 0x4b, 3, 4, 20, 0]))).toBe('zip');
    expect(datasetFileKind(Uint8Array.from([0x50, 0x4b, 5, 6]))).toBe('zip');
    expect(datasetFileKind(new TextEncoder().encode('{"observations": []}'))).toBeUndefined();
    expect(datasetFileKind(new Uint8Array(0))).toBeUndefined();
  });
});
