import { describe, expect, it } from 'vitest';
import { parseStubbedTimings } from './stubbed-timings';

describe('parseStubbedTimings', () => {
  it('reads milliseconds per decision and per gradient step as seconds', () => {
    expect(parseStubbedTimings('webgpu:1/2,wasm:10/20')).toEqual({
      webgpu: { decisionSeconds: 0.001, gradStepSeconds: 0.002 },
      wasm: { decisionSeconds: 0.01, gradStepSeconds: 0.02 },
    });
    expect(parseStubbedTimings('')).toEqual({});
  });

  it('names the bad entry and the format', () => {
    expect(() => parseStubbedTimings('webgl:1/2')).toThrow("stubbed backend timing 'webgl:1/2' is not valid: give backend:decisionMs/gradStepMs pairs");
    expect(() => parseStubbedTimings('wasm:0/2')).toThrow(/with backends from webgpu, wasm, cpu and positive times/);
    expect(() => parseStubbedTimings('wasm:3')).toThrow(/'wasm:3' is not valid/);
  });
});
