/**
 * How the studio names an observation kind after a task's name, in the task picker and in
 * sentences: "pick-cube · camera rgb", "no shipped checkpoint for pick-cube (camera rgb)".
 * Shared by the page and the trainer worker so both say the same words.
 */
import type { RunConfig } from '../config/run-config';

export type ObsTypeName = RunConfig['env']['obs_type'];

const OBS_TYPE_WORDS: Record<ObsTypeName, string> = {
  state: '',
  pointcloud: 'point cloud',
  depth_pointcloud: 'depth point cloud',
  rgb: 'camera rgb',
  rgbd: 'camera rgbd',
};

/** The kinds in the order the picker lists a task's variants. */
export const OBS_TYPE_ORDER = Object.keys(OBS_TYPE_WORDS) as ObsTypeName[];

/** The words for an observation kind; empty for state, which a task's plain name stands for. */
export function obsTypeWords(obsType: ObsTypeName): string {
  return OBS_TYPE_WORDS[obsType];
}

/** " (camera rgb)" after a task's name in a sentence; empty for state. */
export function obsTypeSuffix(obsType: ObsTypeName): string {
  return obsType === 'state' ? '' : ` (${OBS_TYPE_WORDS[obsType]})`;
}
