/**
 * MJCF for the 7-DoF arm with a parallel-jaw gripper, the table and the camera
 * (DESIGN.md §5). Built from primitives only, so the printed scene opens in
 * MuJoCo's own tools unchanged. Link offsets and joint limits follow the
 * Franka Panda's published kinematics.
 */

/** Joint limits in rad, Panda datasheet. */
export const ARM_JOINT_RANGES: readonly (readonly [number, number])[] = [
  [-2.8973, 2.8973], [-1.7628, 1.7628], [-2.8973, 2.8973], [-3.0718, -0.0698],
  [-2.8973, 2.8973], [-0.0175, 3.7525], [-2.8973, 2.8973],
];

/** Home posture: gripper pointing down about 0.25 m above the table, fingers along world y. */
export const ARM_HOME_QPOS: readonly number[] = [0, 0.1, 0, -2.3, 0, 2.4, 0.785398];

/** Finger slide travel in m; the jaw gap is twice this. */
export const FINGER_OPEN = 0.04;

/** Physics timestep in s; control runs at 20 Hz, so 10 substeps per action. */
export const PHYSICS_TIMESTEP = 0.005;
export const CONTROL_SUBSTEPS = 10;

export const ROBOT_NAMES = {
  joints: ['joint1', 'joint2', 'joint3', 'joint4', 'joint5', 'joint6', 'joint7'],
  fingerJoints: ['finger_left', 'finger_right'],
  tcpSite: 'tcp',
  fingertipSites: ['fingertip_left', 'fingertip_right'],
  touchSensors: ['touch_left', 'touch_right'],
  camera: 'front',
} as const;

const LINK_RGBA = '0.92 0.92 0.94 1';
const JOINT_RGBA = '0.25 0.25 0.28 1';
const FINGER_RGBA = '0.2 0.2 0.22 1';

/** Arm links are visual only; fingers, cube and table collide (contype/conaffinity 1). */
const VISUAL = 'contype="0" conaffinity="0"';

function armBody(): string {
  return `
    <body name="link0" pos="0 0 0">
      <geom name="link0_geom" type="cylinder" size="0.07 0.07" pos="0 0 0.07" rgba="${JOINT_RGBA}" ${VISUAL}/>
      <body name="link1" pos="0 0 0.333" gravcomp="1">
        <inertial pos="0 0 -0.07" mass="4" diaginertia="0.05 0.05 0.01"/>
        <joint name="joint1" axis="0 0 1" range="${ARM_JOINT_RANGES[0].join(' ')}"/>
        <geom name="link1_geom" type="capsule" size="0.06" fromto="0 0 -0.19 0 0 -0.02" rgba="${LINK_RGBA}" ${VISUAL}/>
        <body name="link2" quat="0.7071068 -0.7071068 0 0" gravcomp="1">
          <inertial pos="0 -0.07 0" mass="4" diaginertia="0.05 0.01 0.05"/>
          <joint name="joint2" axis="0 0 1" range="${ARM_JOINT_RANGES[1].join(' ')}"/>
          <geom name="link2_geom" type="capsule" size="0.06" fromto="0 0 -0.06 0 -0.2 0" rgba="${LINK_RGBA}" ${VISUAL}/>
          <body name="link3" pos="0 -0.316 0" quat="0.7071068 0.7071068 0 0" gravcomp="1">
            <inertial pos="0.04 0 -0.05" mass="3" diaginertia="0.03 0.03 0.01"/>
            <joint name="joint3" axis="0 0 1" range="${ARM_JOINT_RANGES[2].join(' ')}"/>
            <geom name="link3_geom" type="capsule" size="0.055" fromto="0 0 -0.12 0.0825 0 0" rgba="${LINK_RGBA}" ${VISUAL}/>
            <body name="link4" pos="0.0825 0 0" quat="0.7071068 0.7071068 0 0" gravcomp="1">
              <inertial pos="-0.04 0.05 0" mass="3" diaginertia="0.03 0.03 0.01"/>
              <joint name="joint4" axis="0 0 1" range="${ARM_JOINT_RANGES[3].join(' ')}"/>
              <geom name="link4_geom" type="capsule" size="0.055" fromto="0 0 0 -0.0825 0.12 0" rgba="${LINK_RGBA}" ${VISUAL}/>
              <body name="link5" pos="-0.0825 0.384 0" quat="0.7071068 -0.7071068 0 0" gravcomp="1">
                <inertial pos="0 0.04 -0.1" mass="3" diaginertia="0.04 0.04 0.01"/>
                <joint name="joint5" axis="0 0 1" range="${ARM_JOINT_RANGES[4].join(' ')}"/>
                <geom name="link5_geom" type="capsule" size="0.05" fromto="0 0 -0.24 0 0 -0.02" rgba="${LINK_RGBA}" ${VISUAL}/>
                <body name="link6" quat="0.7071068 0.7071068 0 0" gravcomp="1">
                  <inertial pos="0.06 0 0" mass="1.5" diaginertia="0.005 0.005 0.005"/>
                  <joint name="joint6" axis="0 0 1" range="${ARM_JOINT_RANGES[5].join(' ')}"/>
                  <geom name="link6_geom" type="capsule" size="0.045" fromto="0 0 0 0.088 0 0" rgba="${JOINT_RGBA}" ${VISUAL}/>
                  <body name="link7" pos="0.088 0 0" quat="0.7071068 0.7071068 0 0" gravcomp="1">
                    <inertial pos="0 0 0.08" mass="0.7" diaginertia="0.003 0.003 0.003"/>
                    <joint name="joint7" axis="0 0 1" range="${ARM_JOINT_RANGES[6].join(' ')}"/>
                    <geom name="link7_geom" type="cylinder" size="0.045 0.03" pos="0 0 0.06" rgba="${LINK_RGBA}" ${VISUAL}/>
                    ${handBody()}
                  </body>
                </body>
              </body>
            </body>
          </body>
        </body>
      </body>
    </body>`;
}

/** The hand is turned -45 deg about its axis, like the Panda flange, so the jaws close along world y at home. */
function handBody(): string {
  return `<body name="hand" pos="0 0 0.107" quat="0.9238795 0 0 -0.3826834" gravcomp="1">
                      <inertial pos="0 0 0.03" mass="0.6" diaginertia="0.002 0.0005 0.002"/>
                      <geom name="hand_geom" type="box" size="0.022 0.095 0.028" pos="0 0 0.03" rgba="${LINK_RGBA}" ${VISUAL}/>
                      <site name="tcp" pos="0 0 0.1" size="0.006" rgba="1 0.3 0.3 0.6"/>
                      <camera name="wrist" pos="0.05 0 0.06" xyaxes="0 1 0 0.866 0 0.5" fovy="70"/>
                      <body name="finger_left_body" pos="0 0 0.0584" gravcomp="1">
                        <inertial pos="0 0.01 0.03" mass="0.03" diaginertia="1e-5 1e-5 1e-5"/>
                        <joint name="finger_left" type="slide" axis="0 1 0" range="0 ${FINGER_OPEN}" damping="2" armature="0.01"/>
                        <geom name="finger_left_pad" type="box" size="0.012 0.006 0.026" pos="0 0.006 0.0366" rgba="${FINGER_RGBA}" friction="1.5 0.02 0.001" condim="4" solref="0.01 1"/>
                        <site name="fingertip_left" pos="0 0 0.0616" size="0.004" rgba="0.3 0.3 1 0.6"/>
                        <site name="touch_left_site" type="box" size="0.013 0.004 0.027" pos="0 0.002 0.0366" rgba="0 0 0 0"/>
                      </body>
                      <body name="finger_right_body" pos="0 0 0.0584" gravcomp="1">
                        <inertial pos="0 -0.01 0.03" mass="0.03" diaginertia="1e-5 1e-5 1e-5"/>
                        <joint name="finger_right" type="slide" axis="0 -1 0" range="0 ${FINGER_OPEN}" damping="2" armature="0.01"/>
                        <geom name="finger_right_pad" type="box" size="0.012 0.006 0.026" pos="0 -0.006 0.0366" rgba="${FINGER_RGBA}" friction="1.5 0.02 0.001" condim="4" solref="0.01 1"/>
                        <site name="fingertip_right" pos="0 0 0.0616" size="0.004" rgba="0.3 0.3 1 0.6"/>
                        <site name="touch_right_site" type="box" size="0.013 0.004 0.027" pos="0 -0.002 0.0366" rgba="0 0 0 0"/>
                      </body>
                    </body>`;
}

export interface SceneParts {
  /** Task name, used as the model name. */
  model: string;
  /** Extra bodies inside worldbody (objects, goal markers). */
  worldBodies?: string;
  /** qpos of the extra bodies' joints at home (e.g. a free joint's 7 values). */
  objectHomeQpos?: readonly number[];
}

/**
 * The whole task scene as one self-contained MJCF string: no includes, no assets.
 * The table top is the plane z = 0 and the arm base stands on it at the origin.
 */
export function buildSceneMjcf(parts: SceneParts): string {
  const home = [...ARM_HOME_QPOS, FINGER_OPEN, FINGER_OPEN];
  return `<mujoco model="flowtune-${parts.model}">
  <compiler angle="radian" autolimits="true"/>
  <option timestep="${PHYSICS_TIMESTEP}" integrator="implicitfast" cone="elliptic" impratio="10"/>
  <visual><global offwidth="640" offheight="480"/></visual>
  <default>
    <joint damping="10" armature="0.1"/>
    <geom solimp="0.95 0.99 0.001" solref="0.005 1"/>
  </default>
  <worldbody>
    <light name="key" pos="0.6 -0.6 1.6" dir="-0.3 0.3 -1" diffuse="0.8 0.8 0.8"/>
    <geom name="floor" type="plane" size="2 2 0.05" pos="0 0 -0.75" rgba="0.35 0.37 0.4 1" ${VISUAL}/>
    <geom name="table" type="box" size="0.55 0.6 0.375" pos="0.4 0 -0.375" rgba="0.72 0.6 0.45 1" friction="1 0.005 0.0001"/>
    <camera name="front" pos="1.45 0 0.65" xyaxes="0 1 0 -0.42 0 0.91" fovy="45"/>
    ${armBody()}
    ${parts.worldBodies ?? ''}
  </worldbody>
  <contact>
    <exclude body1="finger_left_body" body2="finger_right_body"/>
  </contact>
  <actuator>
${ROBOT_NAMES.joints.map((joint, jointIndex) => `    <position name="act_${joint}" joint="${joint}" kp="${jointIndex < 4 ? 2000 : 800}" dampratio="1" ctrlrange="${ARM_JOINT_RANGES[jointIndex].join(' ')}" forcerange="-150 150"/>`).join('\n')}
    <position name="act_finger_left" joint="finger_left" kp="400" dampratio="1" ctrlrange="0 ${FINGER_OPEN}" forcerange="-25 25"/>
    <position name="act_finger_right" joint="finger_right" kp="400" dampratio="1" ctrlrange="0 ${FINGER_OPEN}" forcerange="-25 25"/>
  </actuator>
  <sensor>
    <touch name="touch_left" site="touch_left_site"/>
    <touch name="touch_right" site="touch_right_site"/>
  </sensor>
  <keyframe>
    <key name="home" qpos="${[...home, ...(parts.objectHomeQpos ?? [])].join(' ')}" ctrl="${home.join(' ')}"/>
  </keyframe>
</mujoco>
`;
}
