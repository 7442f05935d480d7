/**
 * Task objects as MJCF fragments: the 4 cm cube (free joint), stack-cube's
 * green cube and the goal marker (a mocap body, so each env of a batch has its
 * own goal in MjData).
 */

export const CUBE_HALF_SIZE = 0.02;

/** Cube resting on the table at (x, y); visible, colliding, 64 g. */
export function cubeMjcf(x = 0.5, y = 0): string {
  return `<body name="cube" pos="${x} ${y} ${CUBE_HALF_SIZE}">
      <freejoint name="cube_joint"/>
      <geom name="cube_geom" type="box" size="${CUBE_HALF_SIZE} ${CUBE_HALF_SIZE} ${CUBE_HALF_SIZE}" mass="0.064" rgba="0.85 0.2 0.2 1" friction="1.5 0.02 0.001" condim="4"/>
    </body>`;
}

/** qpos of the cube's free joint at home: position then unit quaternion. */
export function cubeHomeQpos(x = 0.5, y = 0): number[] {
  return [x, y, CUBE_HALF_SIZE, 1, 0, 0, 0];
}

/**
 * stack-cube's green cube: the red cube's twin in size, mass and friction, on
 * its own free joint. Its home qpos is cubeHomeQpos(x, y).
 */
export function baseCubeMjcf(x = 0.5, y = 0): string {
  return `<body name="base_cube" pos="${x} ${y} ${CUBE_HALF_SIZE}">
      <freejoint name="base_cube_joint"/>
      <geom name="base_cube_geom" type="box" size="${CUBE_HALF_SIZE} ${CUBE_HALF_SIZE} ${CUBE_HALF_SIZE}" mass="0.064" rgba="0.2 0.7 0.3 1" friction="1.5 0.02 0.001" condim="4"/>
    </body>`;
}

/** Goal marker: a translucent sphere that nothing collides with. */
export function goalMarkerMjcf(): string {
  return `<body name="goal" mocap="true" pos="0.5 0 0.2">
      <geom name="goal_marker" type="sphere" size="0.012" rgba="0.2 0.85 0.3 0.45" contype="0" conaffinity="0" group="2"/>
    </body>`;
}
