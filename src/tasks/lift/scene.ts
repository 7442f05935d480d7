/** Lift scene: the arm, the table and a 4 cm cube. */
import { buildSceneMjcf } from '../kit/robot-mjcf';
import { cubeHomeQpos, cubeMjcf } from '../kit/objects-mjcf';

export function liftMjcf(): string {
  return buildSceneMjcf({ model: 'lift', worldBodies: cubeMjcf(), objectHomeQpos: cubeHomeQpos() });
}
