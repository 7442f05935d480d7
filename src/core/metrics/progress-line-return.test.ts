import { describe, expect, it } from 'vitest';
import { formatProgressLine } from './progress-line';

describe('formatProgressLine for a task without a success rule', () => {
  it('shows the eval return where the eval success would be', () => {
    const line = formatProgressLine({
      'progress/iteration': 2, 'progress/env_steps': 256, 'charts/episode_return': -187.254,
      'eval/episode_return': -123.456, 'eval/episode_length': 200, 'losses/approx_kl': 0.001,
    }, 10);
    expect(line).toBe('iter 2/10 steps 256 return -187.25 eval_return -123.46 kl 0.00100');
  });

  it('keeps the success columns, and no return column, when success is logged', () => {
    const line = formatProgressLine({
      'progress/iteration': 2, 'progress/env_steps': 256, 'charts/success_rate': 0.5, 'charts/episode_return': 3,
      'eval/success_rate': 0.25, 'eval/episode_return': 4,
    });
    expect(line).toBe('iter 2 steps 256 success 0.500 return 3.00 eval 0.250');
  });
});
