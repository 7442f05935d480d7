import { describe, expect, it } from 'vitest';
import { StageDiscarded, StagePause } from './stage-pause';

/** A loop of `steps` steps that awaits the pause's checkpoint after each, logging what happens. */
async function loop(pause: StagePause, steps: number, log: string[]): Promise<void> {
  try {
    for (let step = 1; step <= steps; step++) {
      log.push(`step ${step}`);
      await pause.checkpoint(() => log.push('parked'), () => log.push('resumed'));
    }
    pause.settle();
  } catch (error) {
    if (error instanceof StageDiscarded) log.push('discarded');
    else pause.settle(error as Error);
  }
}

describe('StagePause', () => {
  it('settles the starter at the next pause, and the resumer at the end', async () => {
    const pause = new StagePause();
    const log: string[] = [];
    const settled = pause.untilSettled();
    pause.request();
    const running = loop(pause, 3, log);
    await settled;
    expect(pause.paused).toBe(true);
    expect(log).toEqual(['step 1', 'parked']);
    await pause.resume();
    await running;
    expect(pause.paused).toBe(false);
    expect(log).toEqual(['step 1', 'parked', 'resumed', 'step 2', 'step 3']);
  });

  it('unwinds a parked loop that is discarded', async () => {
    const pause = new StagePause();
    const log: string[] = [];
    const settled = pause.untilSettled();
    pause.request();
    const running = loop(pause, 3, log);
    await settled;
    pause.discard();
    await running;
    expect(log).toEqual(['step 1', 'parked', 'discarded']);
    expect(pause.paused).toBe(false);
  });

  it('rejects the starter when the loop fails', async () => {
    const pause = new StagePause();
    const settled = pause.untilSettled();
    pause.settle(new Error('the env died'));
    await expect(settled).rejects.toThrow('the env died');
  });
});
