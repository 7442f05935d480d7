import { describe, expect, it } from 'vitest';
import type { TaskEntry } from '../../protocol/trainer-api';
import { episodeCharts, tasksHaveSuccess } from './episode-charts';

const entry = (name: string, hasSuccess: boolean): TaskEntry => ({ name, doc: '', builtIn: false, obsTypes: ['state'], hasSuccess, hasExpert: false });
const TASKS = [entry('reacher', true), entry('swingup', false)];

describe('episode charts', () => {
  it('draws success rates for a task with a success rule', () => {
    expect(episodeCharts(tasksHaveSuccess(TASKS, ['reacher'])).map((chart) => chart.metric)).toEqual([
      'charts/success_rate', 'eval/success_rate', 'charts/episode_return', 'charts/episode_length',
    ]);
  });

  it('draws return, eval return and length for a task without one', () => {
    expect(episodeCharts(tasksHaveSuccess(TASKS, ['swingup'])).map((chart) => chart.metric)).toEqual([
      'charts/episode_return', 'eval/episode_return', 'charts/episode_length',
    ]);
  });

  it('keeps success charts when any drawn run has a success rule, or its task is not listed', () => {
    expect(tasksHaveSuccess(TASKS, ['swingup', 'reacher'])).toBe(true);
    expect(tasksHaveSuccess(TASKS, ['gone'])).toBe(true);
    expect(tasksHaveSuccess(TASKS, ['swingup', 'swingup'])).toBe(false);
  });
});
