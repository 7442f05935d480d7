/** Pick-cube scene: the arm, the table, a 4 cm cube and a goal marker. */
import { buildSceneMjcf } from '../kit/robot-mjcf';
import { cubeHomeQpos, cubeMjcf, goalMarkerMjcf } from '../kit/objects-mjcf';

export function pickCubeMjcf(): string {
  return buildSceneMjcf({ model: 'pick-cube', worldBodies: cubeMjcf() + '\n    ' + goalMarkerMjcf(), objectHomeQpos: cubeHomeQpos() });
}
