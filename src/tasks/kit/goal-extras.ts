/**
 * The point-cloud extra of the tasks with a goal point (reach, pick-cube, peg-insertion):
 * `goal_pos` 3, read from episode.goal, which the points alone do not show.
 */
import type { ArmTaskDefinition as TaskDefinition } from './arm-task';

export function goalPointcloudExtras(doc: string): Pick<TaskDefinition, 'pointcloudExtraSlices' | 'writePointcloudExtras'> {
  return {
    pointcloudExtraSlices: [{ name: 'goal_pos', dim: 3, doc }],
    writePointcloudExtras(view, out, offset) {
      for (let axis = 0; axis < 3; axis++) out[offset + axis] = view.episode.goal[axis];
    },
  };
}
