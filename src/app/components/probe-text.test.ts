import { describe, expect, it } from 'vitest';
import { probeSummary } from './probe-text';

describe('probeSummary', () => {
  it('reads as a sentence, with what to do when the backend fails', () => {
    expect(probeSummary({ shape: [2, 4, 4], allFinite: true, backend: 'wasm' }))
      .toBe('wasm works: a small test policy sampled 2 action chunks of 4 steps × 4 values, all finite.');
    expect(probeSummary({ shape: [2, 4, 4], allFinite: false, backend: 'webgpu' })).toMatch(/^webgpu is not usable: .* reload with another \?backend=/);
  });
});
