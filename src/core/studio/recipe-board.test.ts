import { describe, expect, it } from 'vitest';
import type { TrainerEvent } from '../../protocol/trainer-api';
import { RecipeBoard, stageEvents } from './recipe-board';
import { checkRecordRequest } from './record-request';

describe('RecipeBoard', () => {
  it('mirrors status changes with the session\'s extras, and keeps stage 1\'s chart points for stage 2', () => {
    const events: TrainerEvent[] = [];
    const board = new RecipeBoard((event) => events.push(event), () => ({ policyStage: 'bc' }));
    board.update({ stage: 'pretrain', phase: 'running', total: 4 });
    expect(events.at(-1)).toEqual({ type: 'recipe', status: { phase: 'running', stage: 'pretrain', done: 0, total: 4, policyStage: 'bc' } });
    expect(board.current).not.toHaveProperty('policyStage');
    board.addPoint({ stage: 'pretrain', step: 1, loss: 0.5 });
    board.addPoint({ stage: 'offline', step: 1, loss: 0.4 });
    board.restartCharts('offline');
    expect(events.at(-1)).toEqual({ type: 'recipe-points', points: [{ stage: 'pretrain', step: 1, loss: 0.5 }] });
    board.restartCharts('pretrain');
    expect(events.at(-1)).toEqual({ type: 'recipe-points', points: [] });
  });

  it('turns a stage\'s hooks into chart points, status lines and a pause point after each step', async () => {
    const events: TrainerEvent[] = [];
    const board = new RecipeBoard((event) => events.push(event), () => ({}));
    const parked: number[] = [];
    const ports = stageEvents<number>(board, {
      stage: 'offline', total: 10, openEnv: async () => { throw new Error('not opened here'); }, lossOf: (loss) => loss,
      park: async (_exportNow, step) => void parked.push(step),
    });
    ports.onPhase?.('fitting the critic');
    expect(board.current.message).toBe('stage 2: fitting the critic');
    ports.onProgress?.(3, 0.25, 1);
    ports.onEval?.(3, { mean_return: 1, mean_length: 5, episodes: 2, seed: 0, success_rate: 0.5 });
    await ports.afterStep?.(3, async () => { throw new Error('not exported'); });
    expect(board.current).toMatchObject({ done: 3, message: 'stage 2: step 3 / 10' });
    expect(parked).toEqual([3]);
    expect(events.filter((event) => event.type === 'recipe-point').map((event) => event.type === 'recipe-point' && event.point)).toEqual([
      { stage: 'offline', step: 3, loss: 0.25 },
      { stage: 'offline', step: 3, evalSuccess: 0.5 },
    ]);
  });
});

describe('checkRecordRequest', () => {
  it('names the bad field in one sentence', () => {
    expect(() => checkRecordRequest({ episodes: 10, noise: 0.1, seed: 0 })).not.toThrow();
    expect(() => checkRecordRequest({ episodes: 0, noise: 0.1, seed: 0 })).toThrow('episodes must be an integer in [1, 10000], got 0');
    expect(() => checkRecordRequest({ episodes: 1, noise: 2, seed: 0 })).toThrow('noise must be a number in [0, 1], got 2');
    expect(() => checkRecordRequest({ episodes: 1, noise: 0, seed: -1 })).toThrow(/^seed must be an integer/);
  });
});
