import { describe, expect, it } from 'vitest';
import type { RecipePoint } from '../../protocol/recipe-api';
import { lastEvalSuccess, stageSeries } from './recipe-series';

describe('stageSeries', () => {
  it('splits one stage’s points into its loss curve and eval points, in step order', () => {
    const losses = [Math.random(), Math.random(), Math.random()];
    const points: RecipePoint[] = [
      { stage: 'pretrain', step: 10, loss: losses[0] },
      { stage: 'pretrain', step: 15, evalSuccess: 0.5 },
      { stage: 'offline', step: 5, loss: 9 },
      { stage: 'pretrain', step: 20, loss: losses[1] },
      { stage: 'pretrain', step: 30, loss: losses[2], evalSuccess: 1 },
    ];
    expect(stageSeries(points, 'pretrain')).toEqual({ lossSteps: [10, 20, 30], losses, evalSteps: [15, 30], evalSuccess: [0.5, 1] });
    expect(stageSeries(points, 'offline')).toEqual({ lossSteps: [5], losses: [9], evalSteps: [], evalSuccess: [] });
  });

  it('sorts late points into place and leaves out non-finite values', () => {
    const points: RecipePoint[] = [
      { stage: 'offline', step: 20, loss: 0.2 },
      { stage: 'offline', step: 10, loss: 0.4 },
      { stage: 'offline', step: 30, loss: NaN, evalSuccess: 0 },
    ];
    expect(stageSeries(points, 'offline')).toEqual({ lossSteps: [10, 20], losses: [0.4, 0.2], evalSteps: [30], evalSuccess: [0] });
  });
});

describe('lastEvalSuccess', () => {
  it('is the newest evaluation of the stage asked for, or undefined before one', () => {
    const success = Math.random();
    const points: RecipePoint[] = [
      { stage: 'pretrain', step: 15, evalSuccess: 0.25 },
      { stage: 'pretrain', step: 30, loss: 0.1, evalSuccess: success },
      { stage: 'offline', step: 10, loss: 0.3 },
    ];
    expect(lastEvalSuccess(points, 'pretrain')).toBe(success);
    expect(lastEvalSuccess(points, 'offline')).toBeUndefined();
  });
});
