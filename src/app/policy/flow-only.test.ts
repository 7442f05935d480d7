import { describe, expect, it } from 'vitest';
import { deterministicActionText, flowOnlyText, onnxGraphText, type FlowOnlyView } from './flow-only';

const VIEWS: FlowOnlyView[] = ['chains', 'chain-paths', 'noise'];

describe('flow-only views', () => {
  it('a flow policy and a diffusion policy have every view', () => {
    for (const view of VIEWS) expect(flowOnlyText('flow', view)).toBeUndefined();
    for (const view of VIEWS) expect(flowOnlyText('diffusion', view)).toBeUndefined();
  });

  it('a Gaussian policy gets one sentence per view naming what it lacks', () => {
    expect(flowOnlyText('gaussian', 'chains')).toBe('A Gaussian policy has no denoising chain: it draws each action from one Gaussian around its mean.');
    expect(flowOnlyText('gaussian', 'chain-paths')).toMatch(/^A Gaussian policy has no denoising chains/);
    expect(flowOnlyText('gaussian', 'noise')).toContain('policy.init_log_std');
    for (const view of VIEWS) expect(flowOnlyText('gaussian', view)).not.toContain('\n');
  });

  it('the deterministic action and the ONNX graph are described per family', () => {
    expect(deterministicActionText('flow')).toBe('deterministic ODE actions');
    expect(deterministicActionText('gaussian')).toBe("the Gaussian policy's mean action");
    expect(onnxGraphText('flow')).toContain('K ODE steps');
    expect(onnxGraphText('gaussian')).not.toContain('ODE');
  });
});
