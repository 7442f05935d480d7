/**
 * The ant's scene: our MJCF with the physical parameters of Gymnasium's ant.xml (Ant-v5; MIT): a
 * 0.25 m sphere torso on a free joint, 0.75 m up, and four legs of three capsules (radius 0.08,
 * density 5) with a hip about z (±30°) and an ankle about a horizontal diagonal, armature 1 and
 * damping 1 on the leg joints, 1 cm contact margin, motors of gear 150, RK4 at 10 ms.
 */
import { floorMjcf, mjcfElement } from '../kit/locomotion';

export const ANT_TIMESTEP = 0.01;
const BODY_RGBA = [0.8, 0.6, 0.4, 1] as const;
const RADIUS = 0.08;

interface Leg {
  /** 1..4, as the hip_N and ankle_N joints are numbered. */
  index: number;
  /** Unit-free direction of the leg in the xy plane (±1, ±1). */
  x: number;
  y: number;
  body: string;
  /** Names of the hip-link, thigh and shin capsules. */
  geoms: readonly [string, string, string];
  ankleAxis: readonly number[];
  /** Ankle range (degrees). */
  ankleRange: readonly number[];
}

const LEGS: readonly Leg[] = [
  { index: 1, x: 1, y: 1, body: 'front_left_leg', geoms: ['aux_1_geom', 'left_leg_geom', 'left_ankle_geom'], ankleAxis: [-1, 1, 0], ankleRange: [30, 70] },
  { index: 2, x: -1, y: 1, body: 'front_right_leg', geoms: ['aux_2_geom', 'right_leg_geom', 'right_ankle_geom'], ankleAxis: [1, 1, 0], ankleRange: [-70, -30] },
  { index: 3, x: -1, y: -1, body: 'back_leg', geoms: ['aux_3_geom', 'back_leg_geom', 'third_ankle_geom'], ankleAxis: [-1, 1, 0], ankleRange: [-70, -30] },
  { index: 4, x: 1, y: -1, body: 'right_back_leg', geoms: ['aux_4_geom', 'rightback_leg_geom', 'fourth_ankle_geom'], ankleAxis: [1, 1, 0], ankleRange: [30, 70] },
];
/** Motor order: the right back leg first, then the front left, front right and back legs. */
const MOTOR_ORDER = [4, 1, 2, 3] as const;

function capsule(name: string, leg: Leg, length: number): string {
  return mjcfElement('geom', { name, type: 'capsule', fromto: [0, 0, 0, length * leg.x, length * leg.y, 0], size: RADIUS, rgba: BODY_RGBA });
}

function legMjcf(leg: Leg): string {
  const [hipLink, thigh, shin] = leg.geoms;
  const shinBody = mjcfElement('body', { name: `ankle_${leg.index}_link`, pos: [0.2 * leg.x, 0.2 * leg.y, 0] }, [
    mjcfElement('joint', { name: `ankle_${leg.index}`, type: 'hinge', axis: leg.ankleAxis, pos: [0, 0, 0], range: leg.ankleRange }),
    capsule(shin, leg, 0.4),
  ]);
  const thighBody = mjcfElement('body', { name: `aux_${leg.index}`, pos: [0.2 * leg.x, 0.2 * leg.y, 0] }, [
    mjcfElement('joint', { name: `hip_${leg.index}`, type: 'hinge', axis: [0, 0, 1], pos: [0, 0, 0], range: [-30, 30] }),
    capsule(thigh, leg, 0.2),
    shinBody,
  ]);
  return mjcfElement('body', { name: leg.body, pos: [0, 0, 0] }, [capsule(hipLink, leg, 0.2), thighBody]);
}

export function antMjcf(): string {
  const torso = mjcfElement('body', { name: 'torso', pos: [0, 0, 0.75] }, [
    mjcfElement('geom', { name: 'torso_geom', type: 'sphere', size: 0.25, pos: [0, 0, 0], rgba: BODY_RGBA }),
    mjcfElement('joint', { name: 'root', type: 'free', pos: [0, 0, 0], limited: 'false', armature: 0, damping: 0, margin: 0.01 }),
    ...LEGS.map(legMjcf),
  ]);
  const motors = MOTOR_ORDER.flatMap((index) => [`hip_${index}`, `ankle_${index}`]);
  return mjcfElement('mujoco', { model: 'ant' }, [
    mjcfElement('compiler', { angle: 'degree', inertiafromgeom: 'true' }),
    mjcfElement('option', { timestep: ANT_TIMESTEP, integrator: 'RK4' }),
    mjcfElement('default', {}, [
      mjcfElement('joint', { limited: 'true', armature: 1, damping: 1 }),
      mjcfElement('geom', { contype: 1, conaffinity: 0, condim: 3, density: 5, friction: [1, 0.5, 0.5], margin: 0.01, rgba: BODY_RGBA }),
    ]),
    mjcfElement('worldbody', {}, [
      floorMjcf({ size: [40, 40, 40], conaffinity: 1, condim: 3, rgba: [0.8, 0.9, 0.8, 1] }),
      torso,
    ]),
    mjcfElement('actuator', {}, motors.map((joint) => mjcfElement('motor', { name: joint, joint, gear: 150, ctrllimited: 'true', ctrlrange: [-1, 1] }))),
  ]);
}
