import { describe, expect, it } from 'vitest';
import type { DemoSetSummary } from '../../protocol/recipe-api';
import { demoSummaryText, demosMismatchText, demosObservationNote, progressFraction, progressText } from './demo-summary';

const recorded: DemoSetSummary = { source: 'recorded', task: 'reach', obsType: 'state', episodes: 50, steps: 4812, successes: 48, noise: 0.3 };

describe('demoSummaryText', () => {
  it('lists source, episodes, steps with thousands separators, successes and noise', () => {
    expect(demoSummaryText(recorded)).toBe('recorded · 50 episodes · 4,812 steps · 48 succeeded · noise 0.3');
  });

  it('names a dropped file, leaves out unknown noise, and says when the demos are point clouds', () => {
    expect(demoSummaryText({ ...recorded, source: 'reach.demos', noise: undefined, episodes: 1, steps: 1, successes: 0 }))
      .toBe('reach.demos · 1 episode · 1 step · 0 succeeded');
    expect(demoSummaryText({ ...recorded, obsType: 'pointcloud', numPoints: 128, noise: 0 }))
      .toBe('recorded · point cloud 128 pts · 50 episodes · 4,812 steps · 48 succeeded · noise 0');
  });
});

describe('progress', () => {
  it('counts episodes while recording and steps while training', () => {
    expect(progressText({ stage: 'record', done: 12, total: 50 })).toBe('12 / 50 episodes');
    expect(progressText({ stage: 'pretrain', done: 300, total: 1000 })).toBe('300 / 1,000 steps');
    expect(progressText({ stage: 'offline', done: 0, total: 20 })).toBe('0 / 20 steps');
  });

  it('gives the done share, 0 without a total and never past 1', () => {
    expect(progressFraction({ done: 3, total: 4 })).toBe(0.75);
    expect(progressFraction({ done: 0, total: 0 })).toBe(0);
    expect(progressFraction({ done: 5, total: 4 })).toBe(1);
  });
});

describe('demosMismatchText', () => {
  it('is silent when the demos fit the selected task', () => {
    expect(demosMismatchText(recorded, 'reach')).toBeUndefined();
  });

  it('names the demos’ task and the selected one', () => {
    expect(demosMismatchText(recorded, 'lift')).toBe('These demos are of reach, but the selected task is lift: record or drop demos of lift, or pick reach again.');
  });

  it('is no error for another observation kind: stage 1 trains in the demos\' kind, and a note says so', () => {
        expect(demosObservationNote(recorded, 'reach', 'pointcloud')).toBe('These demos hold state observations, so stage 1 trains a state policy of reach (the Config tab is set to point-cloud).');
    expect(demosObservationNote(recorded, 'reach', 'state')).toBeUndefined();
    expect(demosObservationNote(recorded, 'lift', 'pointcloud')).toBeUndefined();
  });
});
