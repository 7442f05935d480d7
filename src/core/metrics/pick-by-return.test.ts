import { describe, expect, it } from 'vitest';
import { TrainingError } from '../errors';
import { pickCheckpointByReturn } from './pick-by-return';

const record = (iteration: number, evalReturn?: number) => ({ 'progress/iteration': iteration, ...(evalReturn === undefined ? {} : { 'eval/episode_return': evalReturn }) });

describe('pickCheckpointByReturn', () => {
  it('picks the saved, evaluated iteration closest to a fraction of the final return', () => {
    // Final 3000 → target 1000: iteration 100 (900, off by 100) beats 150 (1250, off by 250); 50 is closer (1020) but not saved.
    const records = [record(50, 1020), record(75), record(100, 900), record(150, 1250), record(200, 3000)];
    const picked = pickCheckpointByReturn(records, { fraction: 1 / 3 }, (iteration) => iteration !== 50);
    expect(picked).toEqual({ iteration: 100, evalReturn: 900, finalReturn: 3000, target: 1000 });
  });

  it('picks by an absolute return when one is given', () => {
    // Target 1450: 1570 is off by 120, 1242 by 208, 3000 by 1550 → iteration 60.
    const records = [record(50, 1242), record(60, 1570), record(200, 3000)];
    expect(pickCheckpointByReturn(records, { absolute: 1450 }, () => true)).toEqual({ iteration: 60, evalReturn: 1570, finalReturn: 3000, target: 1450 });
  });

  it('says why when nothing can be picked', () => {
    expect(() => pickCheckpointByReturn([record(1), record(2)], { fraction: 0.5 }, () => true)).toThrow(TrainingError);
    expect(() => pickCheckpointByReturn([record(1, 5)], { fraction: 0.5 }, () => false)).toThrow('no evaluated iteration of the run has its checkpoint saved');
  });
});
