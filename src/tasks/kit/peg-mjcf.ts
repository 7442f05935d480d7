/**
 * MJCF fragments of peg-insertion (DESIGN.md §5): a square peg on a free joint
 * and a fixture with a square hole, built from four box walls on a mocap body
 * (so each env of a batch places its own fixture; mocap geoms collide like
 * static geometry).
 *
 * The fixture body's origin is the hole centre on the table (z = 0); the walls
 * are offset from it. Hole side = peg side + 4 mm: 2 mm of clearance per side.
 */

/**
 * Peg cross-section half-side (m): a 3 cm × 3 cm square. The position-controlled fingers squeeze
 * with a force proportional to how far the peg holds them from their target, so a wider peg is
 * held more firmly, and stays held while a noisy gripper command is below −0.25 (jaw target < 3 cm).
 */
export const PEG_HALF_WIDTH = 0.015;
/** Peg half-height (m): 9 cm tall. */
export const PEG_HALF_HEIGHT = 0.045;
/** Peg mass (kg), about a wooden peg of this size (3 × 3 × 9 cm). */
export const PEG_MASS = 0.04;
/** Gap between the peg and each wall when centred (m); 4 mm in total across the hole. */
export const HOLE_CLEARANCE = 0.002;
/** Hole half-side (m): a 3.4 cm square hole. */
export const HOLE_HALF_WIDTH = PEG_HALF_WIDTH + HOLE_CLEARANCE;
/** Wall thickness (m); the fixture's outer side is 2·(HOLE_HALF_WIDTH + WALL_THICKNESS) = 6.4 cm. */
export const WALL_THICKNESS = 0.015;
/** Wall height above the table (m): the fixture's top face, so a peg seated 2 cm deep is half in. */
export const WALL_HEIGHT = 0.04;
/** Half-side of the fixture's square footprint (m). */
export const FIXTURE_HALF_WIDTH = HOLE_HALF_WIDTH + WALL_THICKNESS;

const PEG_RGBA = '0.92 0.55 0.15 1';
const FIXTURE_RGBA = '0.25 0.4 0.75 1';

/** Peg standing upright on the table at (x, y); as grippy as the cube, so the pads hold it. */
export function pegMjcf(x = 0.5, y = -0.12): string {
  return `<body name="peg" pos="${x} ${y} ${PEG_HALF_HEIGHT}">
      <freejoint name="peg_joint"/>
      <geom name="peg_geom" type="box" size="${PEG_HALF_WIDTH} ${PEG_HALF_WIDTH} ${PEG_HALF_HEIGHT}" mass="${PEG_MASS}" rgba="${PEG_RGBA}" friction="1.5 0.02 0.001" condim="4"/>
    </body>`;
}

/** qpos of the peg's free joint at home: upright on the table. */
export function pegHomeQpos(x = 0.5, y = -0.12): number[] {
  return [x, y, PEG_HALF_HEIGHT, 1, 0, 0, 0];
}

/**
 * The fixture: two long walls along x (covering the corners) and two short ones along y.
 * priority="1" makes peg–wall contacts use the walls' low friction and condim 3, so a
 * peg brushing a wall slides down instead of sticking (the peg keeps its grippy
 * friction against the pads and the table).
 */
export function fixtureMjcf(x = 0.5, y = 0.12): string {
  const offset = HOLE_HALF_WIDTH + WALL_THICKNESS / 2;
  const halfZ = WALL_HEIGHT / 2;
  const halfT = WALL_THICKNESS / 2;
  const wall = (name: string, px: number, py: number, sx: number, sy: number) =>
    `<geom name="fixture_wall_${name}" type="box" pos="${px} ${py} ${halfZ}" size="${sx} ${sy} ${halfZ}" rgba="${FIXTURE_RGBA}" friction="0.3 0.005 0.0001" condim="3" priority="1"/>`;
  return `<body name="fixture" mocap="true" pos="${x} ${y} 0">
      ${wall('pos_y', 0, offset, FIXTURE_HALF_WIDTH, halfT)}
      ${wall('neg_y', 0, -offset, FIXTURE_HALF_WIDTH, halfT)}
      ${wall('pos_x', offset, 0, halfT, HOLE_HALF_WIDTH)}
      ${wall('neg_x', -offset, 0, halfT, HOLE_HALF_WIDTH)}
    </body>`;
}
