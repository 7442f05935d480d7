/**
 * How a camera pixel gets its colour (DESIGN.md §19): the hit geom's flat colour (its material's
 * rgba when it has one, else geom_rgba) lit by one fixed directional light, ambient plus Lambert on
 * the ray's hit normal; a ray that hits nothing shows the background. The light is fixed in the world,
 * not taken from the scene's <light>s, so every task renders the same way from its geoms alone.
 */
import type { MjModel } from '../mujoco-types';

/** Unit vector toward the light, world frame: from above, a little in front (+x) and to the right (−y) of the arm base. */
export const LIGHT_DIRECTION: readonly [number, number, number] = [0.276172385369497, -0.276172385369497, 0.9205746178983235];
/** Share of the colour every lit surface gets, whatever its normal. */
export const AMBIENT = 0.4;
/** Share added in proportion to max(0, normal · light). */
export const DIFFUSE = 0.6;
/** Pixels whose ray hits nothing. */
export const BACKGROUND_RGB: readonly [number, number, number] = [40, 44, 52];

/** [ngeom, 3] each geom's base colour in [0, 1]: mat_rgba when geom_matid ≥ 0, else geom_rgba. */
export function geomBaseColours(model: MjModel): Float32Array {
  const geomRgba = model.geom_rgba as Float32Array;
  const geomMatId = model.geom_matid as Int32Array;
  const matRgba = model.mat_rgba as Float32Array;
  const colours = new Float32Array(model.ngeom * 3);
  for (let geomId = 0; geomId < model.ngeom; geomId++) {
    const materialId = geomMatId[geomId];
    const source = materialId >= 0 ? matRgba : geomRgba;
    const base = (materialId >= 0 ? materialId : geomId) * 4;
    for (let channel = 0; channel < 3; channel++) colours[geomId * 3 + channel] = source[base + channel];
  }
  return colours;
}

/** Light reaching a surface with unit normal (nx, ny, nz): AMBIENT + DIFFUSE · max(0, n · light). */
export function lightIntensity(nx: number, ny: number, nz: number): number {
  const facing = nx * LIGHT_DIRECTION[0] + ny * LIGHT_DIRECTION[1] + nz * LIGHT_DIRECTION[2];
  return AMBIENT + DIFFUSE * (facing > 0 ? facing : 0);
}

/** One channel in 0..255: round(255 · clamp(colour · intensity, 0, 1)). */
export function shadedChannel(colour: number, intensity: number): number {
  const value = colour * intensity;
  return Math.round(255 * (value < 0 ? 0 : value > 1 ? 1 : value));
}
