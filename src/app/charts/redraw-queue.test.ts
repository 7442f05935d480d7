import { describe, expect, it } from 'vitest';
import { RedrawQueue, type FrameScheduler } from './redraw-queue';

/** A scheduler whose frames advance only when the test says so. */
function manualFrames(): FrameScheduler & { frame(): void; waiting(): number } {
  let callbacks: (() => void)[] = [];
  return {
    afterNextFrame: (callback) => { callbacks.push(callback); },
    frame() {
      const due = callbacks;
      callbacks = [];
      for (const callback of due) callback();
    },
    waiting: () => callbacks.length,
  };
}

describe('RedrawQueue', () => {
  it('runs one redraw per frame, in request order', () => {
    const frames = manualFrames();
    const queue = new RedrawQueue(frames);
    const drawn: string[] = [];
    const a = {};
    const b = {};
    const c = {};
    queue.request(a, () => drawn.push('a'));
    queue.request(b, () => drawn.push('b'));
    queue.request(c, () => drawn.push('c'));
    expect(drawn).toEqual([]);
    frames.frame();
    expect(drawn).toEqual(['a']);
    frames.frame();
    expect(drawn).toEqual(['a', 'b']);
    frames.frame();
    expect(drawn).toEqual(['a', 'b', 'c']);
    frames.frame();
    expect(frames.waiting()).toBe(0);
    expect(queue.size).toBe(0);
  });

  it('keeps only the newest redraw of an owner and moves it to the back', () => {
    const frames = manualFrames();
    const queue = new RedrawQueue(frames);
    const drawn: string[] = [];
    const a = {};
    const b = {};
    queue.request(a, () => drawn.push('a1'));
    queue.request(b, () => drawn.push('b1'));
    queue.request(a, () => drawn.push('a2'));
    expect(queue.size).toBe(2);
    frames.frame();
    frames.frame();
    frames.frame();
    expect(drawn).toEqual(['b1', 'a2']);
  });

  it('cancels a queued redraw, but not a newer one of the same owner', () => {
    const frames = manualFrames();
    const queue = new RedrawQueue(frames);
    const drawn: string[] = [];
    const a = {};
    const cancelOld = queue.request(a, () => drawn.push('old'));
    cancelOld();
    expect(queue.size).toBe(0);
    const cancelStale = queue.request(a, () => drawn.push('stale'));
    queue.request(a, () => drawn.push('new'));
    cancelStale();
    frames.frame();
    frames.frame();
    expect(drawn).toEqual(['new']);
  });

  it('starts draining again after going idle', () => {
    const frames = manualFrames();
    const queue = new RedrawQueue(frames);
    const drawn: string[] = [];
    queue.request({}, () => drawn.push('first'));
    frames.frame();
    frames.frame();
    expect(frames.waiting()).toBe(0);
    queue.request({}, () => drawn.push('second'));
    expect(frames.waiting()).toBe(1);
    frames.frame();
    expect(drawn).toEqual(['first', 'second']);
  });
});
