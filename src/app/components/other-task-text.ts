import { obsTypeSuffix } from '../../core/studio/obs-type-words';
import type { CheckpointForOtherTask } from '../../protocol/trainer-api';

/** What holds the studio's task: a run, a New-from-demos stage, or nothing (the task may switch). */
export type TaskHold = 'run' | 'demos' | undefined;

/** The sentence for a checkpoint trained on another task: what the file is, then the next step. */
export function otherTaskText(file: CheckpointForOtherTask, hold: TaskHold): string {
  const what = `${file.source} is a checkpoint for task '${file.task}'${obsTypeSuffix(file.obsType)}`;
  if (!file.known) return `${what}, which this studio does not have: add that task, then drop the file again`;
  if (hold === 'run') return `${what}, and the current run trains '${file.studioTask}': Reset the run, then switch the task to '${file.task}' to use it`;
  if (hold === 'demos') return `${what}, and a New-from-demos stage is using '${file.studioTask}': let it finish or discard it, then switch the task to '${file.task}' to use it`;
  return `${what}; the studio is set to '${file.studioTask}'. Switch the task to use it:`;
}
