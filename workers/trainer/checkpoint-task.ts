/**
 * A dropped checkpoint's task, read from its header before anything opens it: a file for another
 * task than the studio's is not an error to the user but a choice (switch the task), which the
 * page offers. The header is parsed and checked again when the file is opened.
 */
import { parseCheckpointFile, type CheckpointFiles } from '../../src/core/run/open-checkpoint';
import type { TaskName } from '../../src/core/config';
import { hasTask } from '../../src/core/envs/task-registry';
import type { CheckpointForOtherTask } from '../../src/protocol/trainer-api';

/** The file's task when it is not `studioTask`; undefined when it is. A file whose header is unreadable throws its CheckpointError. */
export function checkpointForOtherTask(files: CheckpointFiles, studioTask: TaskName): CheckpointForOtherTask | undefined {
  const header = parseCheckpointFile(files);
  const { task } = header.metadata;
  if (task === studioTask) return undefined;
  return {
    kind: 'other-task', source: files.name, task, studioTask, known: hasTask(task),
    obsType: header.kind === 'flow' && header.architecture.obsEncoder === 'pointcloud' ? 'pointcloud' : 'state',
  };
}
