import { beforeEach, describe, expect, it } from 'vitest';
import type { RecipePoint } from '../../protocol/recipe-api';
import { DEFAULT_DRAFTS, replacedPoints, selectOccupied, useRecipeStore, withPoint } from './recipe-slice';

const point = (stage: RecipePoint['stage'], step: number, loss?: number, evalSuccess?: number): RecipePoint => ({ stage, step, loss, evalSuccess });

describe('recipe point reducer', () => {
  it('appends a point at the end without touching the held array', () => {
    const held = [point('pretrain', 10, 0.9), point('pretrain', 20, 0.7)];
    const next = withPoint(held, point('pretrain', 30, 0.5));
    expect(next.map((entry) => entry.step)).toEqual([10, 20, 30]);
    expect(held).toHaveLength(2);
    expect(next).not.toBe(held);
  });

  it('replaces every point with a copy of the worker’s list', () => {
    const incoming = [point('offline', 5, 1.2)];
    const next = replacedPoints(incoming);
    expect(next).toEqual(incoming);
    incoming.push(point('offline', 10, 1.1));
    expect(next).toHaveLength(1);
  });
});

describe('useRecipeStore', () => {
  beforeEach(() => useRecipeStore.setState({ status: undefined, points: [], notice: undefined, drafts: DEFAULT_DRAFTS }));

  it('appends streamed points in arrival order and starts over on a replacement', () => {
    const store = useRecipeStore.getState();
    const losses = Array.from({ length: 4 }, () => Math.random());
    losses.forEach((loss, index) => store.appendPoint(point('pretrain', (index + 1) * 5, loss)));
    store.appendPoint(point('pretrain', 20, undefined, 0.5));
    expect(useRecipeStore.getState().points.map((entry) => entry.loss)).toEqual([...losses, undefined]);
    store.replacePoints([]);
    expect(useRecipeStore.getState().points).toEqual([]);
    store.appendPoint(point('offline', 1, 0.3));
    expect(useRecipeStore.getState().points).toEqual([point('offline', 1, 0.3)]);
  });

  it('keeps a form’s typed text per field, the defaults elsewhere', () => {
    useRecipeStore.getState().setDraft('pretrain', 'pretrain.steps', '30');
    const { drafts } = useRecipeStore.getState();
    expect(drafts.pretrain).toEqual({ ...DEFAULT_DRAFTS.pretrain, 'pretrain.steps': '30' });
    expect(drafts.offline).toBe(DEFAULT_DRAFTS.offline);
    // The config's defaults: the command line's npm run pretrain and npm run offline start from the same values.
    expect(DEFAULT_DRAFTS.pretrain).toEqual({ 'pretrain.steps': '3000', 'pretrain.batch_size': '256', 'pretrain.lr': '0.001', 'pretrain.eval_every': '0', eval_episodes: '20' });
    expect(DEFAULT_DRAFTS.offline).toEqual({ 'offline.rollouts': '32', 'offline.steps': '1000', 'offline.beta': '1', 'offline.eval_every': '0', eval_episodes: '20' });
    expect(DEFAULT_DRAFTS.record).toEqual({ episodes: '50', noise: '0.3', seed: '0' });
  });
});

describe('selectOccupied', () => {
  it('blocks new work while a stage runs or waits paused, and only then', () => {
    const at = (phase: 'idle' | 'running' | 'paused' | 'done' | 'stopped' | 'error') => selectOccupied({ status: { stage: 'pretrain', phase, done: 0, total: 1 } });
    expect(at('running')).toMatch(/busy/);
    expect(at('paused')).toMatch(/paused: resume or discard it/);
    for (const phase of ['idle', 'done', 'stopped', 'error'] as const) expect(at(phase)).toBeUndefined();
    expect(selectOccupied({ status: undefined })).toBeUndefined();
  });
});
