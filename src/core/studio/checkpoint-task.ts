/**
 * A dropped checkpoint's task, read from its parsed header before anything opens it: a file for
 * another task than the studio's is not an error to the user but a choice (switch the task), which
 * the page offers. The same parsed file is then opened, so the header is parsed once.
 */
import type { TaskName } from '../config';
import { hasTask } from '../envs/task-registry';
import type { CheckpointFile } from '../run/open-checkpoint';
import { obsTypeOfPolicy } from '../policy/options';
import type { CheckpointForOtherTask } from '../../protocol/trainer-api';

/** The file's task when it is not `studioTask`; undefined when it is. */
export function checkpointForOtherTask(file: CheckpointFile, studioTask: TaskName): CheckpointForOtherTask | undefined {
  const { task } = file;
  if (task === studioTask) return undefined;
  return {
    kind: 'other-task', source: file.name, task, studioTask, known: hasTask(task),
    obsType: file.kind === 'flow' ? obsTypeOfPolicy(file.architecture) : 'state',
  };
}
