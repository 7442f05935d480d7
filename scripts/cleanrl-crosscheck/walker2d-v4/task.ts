/**
 * Walker2d-v4 for the cross-check: the built-in walker2d (v5) with v4's two differences, the
 * right foot's friction of 0.9 (v5 gives both feet 1.9) and the healthy reward paid on the
 * terminating step too (v4 pays it whenever terminate_when_unhealthy is on).
 */
import walker from '../../../src/tasks/walker2d/task';
import { walker2dMjcf } from '../../../src/tasks/walker2d/scene';

const v5 = walker2dMjcf();
const scene = v5.replace(/(<geom name="foot_geom"[^>]*friction=")1\.9(")/, '$10.9$2');
if (scene === v5) throw new Error("walker2d-v4: the right foot's friction of 1.9 was not found in the walker's scene");

export default {
  ...walker,
  name: 'walker2d-v4',
  doc: "Gymnasium's Walker2d-v4: the built-in walker2d with v4's right-foot friction and healthy reward.",
  scene,
  step(view: Parameters<typeof walker.step>[0]) {
    const result = walker.step(view);
    return result.terminated ? { ...result, reward: result.reward + 1 } : result;
  },
};
