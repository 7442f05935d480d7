/** Stack-cube scene: the arm, the table, the red cube and the green cube it goes onto. */
import { buildSceneMjcf } from '../kit/robot-mjcf';
import { baseCubeMjcf, cubeHomeQpos, cubeMjcf } from '../kit/objects-mjcf';

/** Home (keyframe) positions, 12 cm apart along y (m); resets move both cubes. */
const RED_HOME = [0.5, 0.06] as const;
const GREEN_HOME = [0.5, -0.06] as const;

export function stackCubeMjcf(): string {
  return buildSceneMjcf({
    model: 'stack-cube',
    worldBodies: cubeMjcf(...RED_HOME) + '\n    ' + baseCubeMjcf(...GREEN_HOME),
    // Free joints in MJCF order: red, then green.
    objectHomeQpos: [...cubeHomeQpos(...RED_HOME), ...cubeHomeQpos(...GREEN_HOME)],
  });
}
