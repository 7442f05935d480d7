/** Peg-insertion scene: the arm, the table, a square peg and the fixture with a square hole. */
import { buildSceneMjcf } from '../kit/robot-mjcf';
import { fixtureMjcf, pegHomeQpos, pegMjcf } from '../kit/peg-mjcf';

export function pegInsertionMjcf(): string {
  return buildSceneMjcf({ model: 'peg-insertion', worldBodies: pegMjcf() + '\n    ' + fixtureMjcf(), objectHomeQpos: pegHomeQpos() });
}
