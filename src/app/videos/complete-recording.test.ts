import { describe, expect, it } from 'vitest';
import { recordUntilComplete } from './complete-recording';

/** A recorder that returns the given frame counts, one per call, and logs its attempts. */
function scripted(counts: number[]) {
  const attempts: number[] = [];
  const record = async (attempt: number) => {
    attempts.push(attempt);
    return { frames: counts[attempt], label: `take ${attempt}` };
  };
  return { attempts, record };
}

describe('recordUntilComplete', () => {
  it('keeps the first recording that holds every frame', async () => {
    const recorder = scripted([101, 100]);
    const recording = await recordUntilComplete(recorder.record, 101);
    expect(recording.label).toBe('take 0');
    expect(recorder.attempts).toEqual([0]);
  });

  it('records again after a take that dropped frames', async () => {
    // 100 and 99 of 101 frames: the third take is complete and is the one returned.
    const recorder = scripted([100, 99, 101]);
    const recording = await recordUntilComplete(recorder.record, 101);
    expect(recording.label).toBe('take 2');
    expect(recorder.attempts).toEqual([0, 1, 2]);
  });

  it('names the frame counts after the last try, and tries no more', async () => {
    const recorder = scripted([100, 97, 100, 101]);
    await expect(recordUntilComplete(recorder.record, 101)).rejects.toThrow(
      'MediaRecorder kept 100, 97, 100 of 101 frames in 3 tries, so the video would be mistimed; the page was too busy to record it',
    );
    expect(recorder.attempts).toEqual([0, 1, 2]);
  });

  it('treats a take with extra frames as incomplete too', async () => {
    const recorder = scripted([102, 101]);
    expect((await recordUntilComplete(recorder.record, 101)).label).toBe('take 1');
  });
});
