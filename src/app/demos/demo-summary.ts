/** The demos flow's one-line texts: the held demos, and a stage's progress. */
import type { DemoSetSummary, RecipeStatus } from '../../protocol/recipe-api';

const count = (value: number, noun: string) => `${value.toLocaleString('en-US')} ${noun}${value === 1 ? '' : 's'}`;

/** "recorded · 50 episodes · 4,812 steps · 48 succeeded · noise 0.3", or the file's name first. */
export function demoSummaryText(demos: DemoSetSummary): string {
  const parts = [demos.source];
  if (demos.obsType !== 'state') parts.push(`${demos.obsType === 'depth_pointcloud' ? 'depth point cloud' : 'point cloud'}${demos.numPoints ? ` ${demos.numPoints} pts` : ''}`);
  parts.push(count(demos.episodes, 'episode'), count(demos.steps, 'step'), `${demos.successes.toLocaleString('en-US')} succeeded`);
  if (demos.noise !== undefined) parts.push(`noise ${demos.noise}`);
  return parts.join(' · ');
}

/** "12 / 50 episodes" while recording, "300 / 1,000 steps" for the training stages. */
export function progressText(status: Pick<RecipeStatus, 'stage' | 'done' | 'total'>): string {
  const noun = status.stage === 'record' ? 'episodes' : 'steps';
  return `${status.done.toLocaleString('en-US')} / ${status.total.toLocaleString('en-US')} ${noun}`;
}

/** done / total in [0, 1]; 0 when there is no total yet. */
export function progressFraction(status: Pick<RecipeStatus, 'done' | 'total'>): number {
  return status.total > 0 ? Math.min(1, Math.max(0, status.done / status.total)) : 0;
}

type ObsKind = DemoSetSummary['obsType'];
const KIND_WORDS: Record<ObsKind, string> = {
  state: 'state', pointcloud: 'point-cloud', depth_pointcloud: 'depth point-cloud', rgb: 'camera-image', rgbd: 'camera-image (rgbd)',
};
const kind = (value: ObsKind) => KIND_WORDS[value];

/** Why the held demos do not fit the selected task; undefined when they do. */
export function demosMismatchText(demos: Pick<DemoSetSummary, 'task'>, task: string): string | undefined {
  if (demos.task !== task) return `These demos are of ${demos.task}, but the selected task is ${task}: record or drop demos of ${task}, or pick ${demos.task} again.`;
  return undefined;
}

/**
 * Stage 1 learns in the demos' observation kind (core/config pretrainConfigForDemos, as `npm run pretrain` does),
 * so another kind than the Config tab's is no error: this says which policy stage 1 will train.
 */
export function demosObservationNote(demos: Pick<DemoSetSummary, 'task' | 'obsType'>, task: string, obsType: ObsKind): string | undefined {
  if (demos.task !== task || demos.obsType === obsType) return undefined;
  return `These demos hold ${kind(demos.obsType)} observations, so stage 1 trains a ${kind(demos.obsType)} policy of ${task} (the Config tab is set to ${kind(obsType)}).`;
}
