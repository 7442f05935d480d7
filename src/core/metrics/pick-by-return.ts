import { TrainingError } from '../errors';
import type { MetricRecord } from './metric-keys';

export interface PickedCheckpoint {
  iteration: number;
  evalReturn: number;
  finalReturn: number;
  target: number;
}

/** The return to pick by: a fraction of the run's last evaluation, or an absolute return. */
export type ReturnTarget = { fraction: number } | { absolute: number };

/**
 * Among the iterations that evaluated (eval/episode_return) and whose checkpoint `saved` says
 * exists, the one whose return is closest to the target; the earlier one on a tie.
 */
export function pickCheckpointByReturn(records: readonly MetricRecord[], goal: ReturnTarget, saved: (iteration: number) => boolean): PickedCheckpoint {
  const evaluated = records.filter((record) => Number.isFinite(Number(record['eval/episode_return'])));
  const last = evaluated.at(-1);
  if (!last) throw new TrainingError('the run logged no evaluation (eval/episode_return), so no checkpoint can be picked by return');
  const finalReturn = Number(last['eval/episode_return']);
  const target = 'absolute' in goal ? goal.absolute : goal.fraction * finalReturn;
  let best: PickedCheckpoint | undefined;
  for (const record of evaluated) {
    const iteration = Number(record['progress/iteration']);
    if (!saved(iteration)) continue;
    const evalReturn = Number(record['eval/episode_return']);
    if (!best || Math.abs(evalReturn - target) < Math.abs(best.evalReturn - target)) best = { iteration, evalReturn, finalReturn, target };
  }
  if (!best) throw new TrainingError('no evaluated iteration of the run has its checkpoint saved (set checkpoint_every to a multiple of eval.every)');
  return best;
}
