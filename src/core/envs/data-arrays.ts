/**
 * Cached typed-array views of one MjData's fields. Each Embind property read
 * builds a new view (about a microsecond), so the hot path keeps them; a view
 * whose buffer was detached by wasm heap growth is re-read. A field that is
 * empty in this model (mocap_pos without mocap bodies) stays cached too.
 */
import type { MjData } from './mujoco-types';

type Field = 'qpos' | 'qvel' | 'ctrl' | 'site_xpos' | 'site_xmat' | 'sensordata' | 'geom_xpos' | 'geom_xmat' | 'xanchor' | 'xaxis' | 'mocap_pos';

export class DataArrays {
  private readonly cache = new Map<Field, Float64Array>();

  constructor(readonly data: MjData) {}

  private get(field: Field): Float64Array {
    let view = this.cache.get(field);
    // A detached buffer has byteLength 0; a live one never does.
    if (!view || view.buffer.byteLength === 0) {
      view = this.data[field] as Float64Array;
      this.cache.set(field, view);
    }
    return view;
  }

  get qpos(): Float64Array { return this.get('qpos'); }
  get qvel(): Float64Array { return this.get('qvel'); }
  get ctrl(): Float64Array { return this.get('ctrl'); }
  get siteXpos(): Float64Array { return this.get('site_xpos'); }
  get siteXmat(): Float64Array { return this.get('site_xmat'); }
  get sensordata(): Float64Array { return this.get('sensordata'); }
  get geomXpos(): Float64Array { return this.get('geom_xpos'); }
  get geomXmat(): Float64Array { return this.get('geom_xmat'); }
  /** [njnt, 3] joint anchors, world frame. */
  get xanchor(): Float64Array { return this.get('xanchor'); }
  /** [njnt, 3] joint axes, world frame. */
  get xaxis(): Float64Array { return this.get('xaxis'); }
  get mocapPos(): Float64Array { return this.get('mocap_pos'); }
}
