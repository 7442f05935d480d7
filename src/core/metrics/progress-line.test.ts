import { describe, expect, it } from 'vitest';
import { formatProgressLine } from './progress-line';

describe('formatProgressLine', () => {
  it('shows the present metrics in a fixed order', () => {
    const line = formatProgressLine({
      'perf/env_steps_per_s': 812.4, 'losses/approx_kl': 0.004, 'charts/success_rate': 0.45,
      'progress/env_steps': 6144, 'progress/iteration': 3,
    }, 10);
    expect(line).toBe('iter 3/10 steps 6144 success 0.450 kl 0.00400 sps 812');
  });

  it('prints non-finite values as they are and works without a total', () => {
    expect(formatProgressLine({ 'progress/iteration': 1, 'losses/policy': NaN, 'losses/value': Infinity }))
      .toBe('iter 1 pi NaN v Infinity');
    expect(formatProgressLine({})).toBe('');
  });
});
