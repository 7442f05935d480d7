import { describe, expect, it } from 'vitest';
import { backendPreference, isSoftwareAdapter, parseBackendName, type AdapterSummary } from './choose-backend';

const swiftshader: AdapterSummary = {
  vendor: 'google',
  architecture: 'swiftshader',
  device: '',
  description: 'SwiftShader Device (Subzero)',
  isFallback: false,
};
const realGpu: AdapterSummary = { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H100', isFallback: false };

describe('backend choice', () => {
  it('tells a software adapter from a real GPU', () => {
    expect(isSoftwareAdapter(swiftshader)).toBe(true);
    expect(isSoftwareAdapter({ ...realGpu, isFallback: true })).toBe(true);
    expect(isSoftwareAdapter(realGpu)).toBe(false);
    expect(isSoftwareAdapter(undefined)).toBe(false);
  });

  it('prefers webgpu on a real GPU and wasm on a software adapter', () => {
    expect(backendPreference(undefined, realGpu)).toEqual(['webgpu', 'wasm', 'cpu']);
    expect(backendPreference(undefined, swiftshader)).toEqual(['wasm', 'webgpu', 'cpu']);
    expect(backendPreference(undefined, undefined)).toEqual(['wasm', 'cpu']);
  });

  it('puts a forced backend first', () => {
    expect(backendPreference('webgpu', swiftshader)).toEqual(['webgpu', 'wasm', 'cpu']);
    expect(backendPreference('cpu', realGpu)).toEqual(['cpu', 'webgpu', 'wasm']);
  });

  it('parses backend names and names the allowed values on a bad one', () => {
    expect(parseBackendName('wasm')).toBe('wasm');
    expect(parseBackendName(null)).toBeUndefined();
    expect(() => parseBackendName('webgl')).toThrow("backend must be one of webgpu, wasm, cpu (got 'webgl')");
  });
});
