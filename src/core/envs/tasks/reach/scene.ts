/** Reach scene: the arm, the table and a goal marker. */
import { buildSceneMjcf } from '../../robot-mjcf';
import { goalMarkerMjcf } from '../../objects-mjcf';

export function reachMjcf(): string {
  return buildSceneMjcf({ model: 'reach', worldBodies: goalMarkerMjcf() });
}
