import { describe, expect, it } from 'vitest';
import { METRIC_GROUPS, METRIC_KEYS, METRICS, isMetricKey, metricsInGroup } from './metric-keys';

const CANONICAL = [
  'progress/iteration', 'progress/env_steps', 'charts/success_rate', 'charts/episode_return', 'charts/episode_length',
  'eval/success_rate', 'losses/policy', 'losses/value', 'losses/entropy', 'losses/approx_kl', 'losses/clip_fraction',
  'losses/ratio_mean', 'losses/ratio_max', 'losses/explained_variance', 'losses/grad_norm', 'noise/std', 'train/actor_lr',
  'perf/env_steps_per_s', 'perf/rollout_s', 'perf/update_s',
];

describe('metric keys', () => {
  it('contain the canonical keys of DESIGN.md §10 and the extra ones of the brief', () => {
    for (const key of CANONICAL) expect(isMetricKey(key), key).toBe(true);
    for (const key of ['progress/wall_s', 'eval/episode_return', 'eval/episode_length', 'train/critic_lr', 'noise/level',
      'losses/nonfinite_skips', 'env/clipped_actions', 'env/instability_resets', 'train/early_stop_epoch']) {
      expect(isMetricKey(key), key).toBe(true);
    }
    expect(isMetricKey('losses/kl')).toBe(false);
  });

  it('give each key a one-line doc and a group matching its prefix', () => {
    for (const key of METRIC_KEYS) {
      const info = METRICS[key];
      expect(info.doc.length, key).toBeGreaterThan(10);
      expect(info.doc, key).not.toContain('\n');
      expect(key.split('/')[0], key).toBe(info.group);
      expect(METRIC_GROUPS, key).toContain(info.group);
    }
    expect(metricsInGroup('perf')).toEqual([
      'perf/env_steps_per_s', 'perf/rollout_s', 'perf/update_s',
      'perf/env_s', 'perf/policy_s', 'perf/value_s', 'perf/forward_s', 'perf/backward_s', 'perf/optimizer_s', 'perf/data_s',
    ]);
    expect(METRIC_GROUPS.flatMap((group) => metricsInGroup(group)).sort()).toEqual([...METRIC_KEYS].sort());
  });
});
