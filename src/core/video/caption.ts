/** The caption drawn into every frame of a rollout video, and the file name it downloads as. */
import { ShapeError } from '../errors';

/** What a video says about its episode (a subset of the trainer's episode summary). */
export interface VideoEpisodeFacts {
  task: string;
  /** Training iteration whose weights played the episode. */
  iteration: number;
  envIndex: number;
  episodeReturn: number;
  /** Control steps. */
  length: number;
  success: boolean;
}

/** Return with two decimals; -0 prints as 0. */
export function formatReturn(episodeReturn: number): string {
  if (!Number.isFinite(episodeReturn)) return String(episodeReturn);
  const text = episodeReturn.toFixed(2);
  return text === '-0.00' ? '0.00' : text;
}

/** One line: "pick-cube · it 12 · ep 0 · return 3.25 · success". */
export function captionText(facts: VideoEpisodeFacts): string {
  return `${facts.task} · it ${facts.iteration} · ep ${facts.envIndex} · return ${formatReturn(facts.episodeReturn)} · ${facts.success ? 'success' : 'failure'}`;
}

/** The frame counter shown beside the caption: "step 3/40" for frame 3 of an episode of 40 steps. */
export function stepLabel(frameIndex: number, length: number): string {
  if (!Number.isInteger(frameIndex) || frameIndex < 0 || frameIndex > length) {
    throw new ShapeError('frameIndex', `frameIndex must be an integer in [0, ${length}], got ${frameIndex}`);
  }
  return `step ${frameIndex}/${length}`;
}

/** Download name: flowtune-<task>-it<iteration>-ep<envIndex>.webm. */
export function videoFileName(facts: Pick<VideoEpisodeFacts, 'task' | 'iteration' | 'envIndex'>, extension = 'webm'): string {
  const task = facts.task.replace(/[^A-Za-z0-9_-]/g, '_');
  return `flowtune-${task}-it${facts.iteration}-ep${facts.envIndex}.${extension}`;
}
