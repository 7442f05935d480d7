import { describe, expect, it } from 'vitest';
import type { MetricRecord } from '../../core/metrics/metric-keys';
import { newEvaluations } from './new-evaluations';

const record = (iteration: number, evaluated: boolean): MetricRecord =>
  (evaluated ? { 'progress/iteration': iteration, 'eval/success_rate': 0.5 } : { 'progress/iteration': iteration });

describe('newEvaluations', () => {
  it('lists the iterations of appended records that evaluated', () => {
    const first = [record(1, false), record(2, false), record(3, true)];
    expect(newEvaluations([], first)).toEqual([3]);
    const appended = [...first, record(4, false), record(5, false), record(6, true)];
    expect(newEvaluations(first, appended)).toEqual([6]);
    expect(newEvaluations(appended, [...appended, record(7, false)])).toEqual([]);
  });

  it('ignores a replaced or shortened history', () => {
    const history = [record(1, false), record(2, true)];
    expect(newEvaluations(history, history)).toEqual([]);
    expect(newEvaluations(history, [])).toEqual([]);
    // A resumed run's history: same length or longer, but new objects; its evaluations are old.
    expect(newEvaluations(history, [record(1, false), record(2, true), record(3, true)])).toEqual([]);
  });
});
