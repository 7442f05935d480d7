import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig } from '../../core/config';
import type { MetricRecord } from '../../core/metrics';
import { scatterKeys, scatterPoints, type ScatterRun } from './sweep-scatter';

const run = (id: string, overrides: string[], success?: number): ScatterRun => ({
  id, name: id, colour: '#000', config: applyOverrides(defaultConfig(), overrides),
  records: [{ 'progress/iteration': 1 }, ...(success === undefined ? [] : [{ 'progress/iteration': 2, 'eval/success_rate': success }])] as MetricRecord[],
});

describe('sweep scatter', () => {
  it('offers only numeric keys for the x axis', () => {
    expect(scatterKeys(['actor_lr', 'noise.method', 'seed'])).toEqual(['actor_lr', 'seed']);
  });

  it('places each run at its key value and final success, sorted by x; runs never evaluated are left out', () => {
    const points = scatterPoints([run('b', ['actor_lr=0.001'], 0.7), run('a', ['actor_lr=0.0001'], 0.2), run('c', ['actor_lr=0.01']), { id: 'loading', name: 'loading', colour: '#000' }], 'actor_lr', 'eval/success_rate');
    expect(points.map((point) => [point.id, point.x, point.y])).toEqual([['a', 0.0001, 0.2], ['b', 0.001, 0.7]]);
  });
});
