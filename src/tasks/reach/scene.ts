/** Reach scene: the arm, the table and a goal marker. */
import { buildSceneMjcf } from '../kit/robot-mjcf';
import { goalMarkerMjcf } from '../kit/objects-mjcf';

export function reachMjcf(): string {
  return buildSceneMjcf({ model: 'reach', worldBodies: goalMarkerMjcf() });
}
