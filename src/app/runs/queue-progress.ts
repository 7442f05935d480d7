/** The status bar's line for the queue (DESIGN.md §11: a queue runs variants × seeds one after another). */
import type { QueueStatus } from '../../protocol/trainer-api';

/** "queue 2 / 6 · lr:low seed 1" while it runs, "queue done: 6 finished, 0 failed" after. */
export function queueProgressText(queue: QueueStatus): string {
  const finished = queue.items.filter((item) => item.state === 'done').length;
  const failed = queue.items.filter((item) => item.state === 'failed').length;
  if (queue.phase !== 'running') return `queue ${queue.phase}: ${finished} finished, ${failed} failed`;
  const index = queue.currentIndex ?? queue.items.findIndex((item) => item.state === 'running');
  const item = queue.items[index];
  if (!item) return `queue ${finished + failed} / ${queue.items.length}`;
  return `queue ${index + 1} / ${queue.items.length} · ${item.variant} seed ${item.seed}`;
}
