/**
 * The half-cheetah's scene: our MJCF with the physical parameters of Gymnasium's half_cheetah.xml
 * (HalfCheetah-v5; MIT): a planar capsule torso and head on three root joints, a back and a front
 * leg of thigh, shin and foot with stiff, damped hinges, total mass 14 kg, motors of gears
 * 120/90/60 (back) and 120/60/30 (front), the default (Euler) integrator at 10 ms.
 */
import { floorMjcf, mjcfElement } from '../kit/locomotion';

export const HALFCHEETAH_TIMESTEP = 0.01;
const BODY_RGBA = [0.8, 0.6, 0.4, 1] as const;
const LOWER_RGBA = [0.9, 0.6, 0.6, 1] as const;

interface Segment {
  name: string;
  /** Body position in its parent. */
  pos: readonly number[];
  joint: { damping: number; stiffness: number; range: readonly number[] };
  /** Capsule: centre in the body, tilt about y (rad), half-length. */
  geom: { pos: readonly number[]; tilt: number; halfLength: number; rgba: readonly number[] };
  gear: number;
}

const BACK_LEG: readonly Segment[] = [
  { name: 'bthigh', pos: [-0.5, 0, 0], joint: { damping: 6, stiffness: 240, range: [-0.52, 1.05] }, geom: { pos: [0.1, 0, -0.13], tilt: -3.8, halfLength: 0.145, rgba: BODY_RGBA }, gear: 120 },
  { name: 'bshin', pos: [0.16, 0, -0.25], joint: { damping: 4.5, stiffness: 180, range: [-0.785, 0.785] }, geom: { pos: [-0.14, 0, -0.07], tilt: -2.03, halfLength: 0.15, rgba: LOWER_RGBA }, gear: 90 },
  { name: 'bfoot', pos: [-0.28, 0, -0.14], joint: { damping: 3, stiffness: 120, range: [-0.4, 0.785] }, geom: { pos: [0.03, 0, -0.097], tilt: -0.27, halfLength: 0.094, rgba: LOWER_RGBA }, gear: 60 },
];
const FRONT_LEG: readonly Segment[] = [
  { name: 'fthigh', pos: [0.5, 0, 0], joint: { damping: 4.5, stiffness: 180, range: [-1, 0.7] }, geom: { pos: [-0.07, 0, -0.12], tilt: 0.52, halfLength: 0.133, rgba: BODY_RGBA }, gear: 120 },
  { name: 'fshin', pos: [-0.14, 0, -0.24], joint: { damping: 3, stiffness: 120, range: [-1.2, 0.87] }, geom: { pos: [0.065, 0, -0.09], tilt: -0.6, halfLength: 0.106, rgba: LOWER_RGBA }, gear: 60 },
  { name: 'ffoot', pos: [0.13, 0, -0.18], joint: { damping: 1.5, stiffness: 60, range: [-0.5, 0.5] }, geom: { pos: [0.045, 0, -0.07], tilt: -0.6, halfLength: 0.07, rgba: LOWER_RGBA }, gear: 30 },
];
const RADIUS = 0.046;

/** A chain of segments, each body the child of the one before. */
function legMjcf(segments: readonly Segment[]): string {
  const [segment, ...rest] = segments;
  return mjcfElement('body', { name: segment.name, pos: segment.pos }, [
    mjcfElement('joint', { name: segment.name, type: 'hinge', axis: [0, 1, 0], pos: [0, 0, 0], ...segment.joint }),
    mjcfElement('geom', { name: segment.name, type: 'capsule', size: [RADIUS, segment.geom.halfLength], pos: segment.geom.pos, axisangle: [0, 1, 0, segment.geom.tilt], rgba: segment.geom.rgba }),
    ...(rest.length > 0 ? [legMjcf(rest)] : []),
  ]);
}

export function halfCheetahMjcf(): string {
  const root = (name: string, type: string, axis: readonly number[]) =>
    mjcfElement('joint', { name, type, axis, pos: [0, 0, 0], limited: 'false', armature: 0, damping: 0, stiffness: 0 });
  const torso = mjcfElement('body', { name: 'torso', pos: [0, 0, 0.7] }, [
    root('rootx', 'slide', [1, 0, 0]),
    root('rootz', 'slide', [0, 0, 1]),
    root('rooty', 'hinge', [0, 1, 0]),
    mjcfElement('geom', { name: 'torso', type: 'capsule', fromto: [-0.5, 0, 0, 0.5, 0, 0], size: RADIUS, rgba: BODY_RGBA }),
    mjcfElement('geom', { name: 'head', type: 'capsule', pos: [0.6, 0, 0.1], axisangle: [0, 1, 0, 0.87], size: [RADIUS, 0.15], rgba: BODY_RGBA }),
    legMjcf(BACK_LEG),
    legMjcf(FRONT_LEG),
  ]);
  return mjcfElement('mujoco', { model: 'cheetah' }, [
    mjcfElement('compiler', { angle: 'radian', inertiafromgeom: 'true', settotalmass: 14 }),
    mjcfElement('option', { timestep: HALFCHEETAH_TIMESTEP, gravity: [0, 0, -9.81] }),
    mjcfElement('default', {}, [
      mjcfElement('joint', { limited: 'true', armature: 0.1, damping: 0.01, stiffness: 8, solreflimit: [0.02, 1], solimplimit: [0, 0.8, 0.03] }),
      mjcfElement('geom', { contype: 1, conaffinity: 0, condim: 3, friction: [0.4, 0.1, 0.1], solref: [0.02, 1], solimp: [0, 0.8, 0.01], rgba: BODY_RGBA }),
    ]),
    mjcfElement('worldbody', {}, [
      floorMjcf({ size: [40, 40, 40], conaffinity: 1, condim: 3, rgba: [0.8, 0.9, 0.8, 1] }),
      torso,
    ]),
    mjcfElement('actuator', {}, [...BACK_LEG, ...FRONT_LEG].map(({ name, gear }) => mjcfElement('motor', { name, joint: name, gear, ctrllimited: 'true', ctrlrange: [-1, 1] }))),
  ]);
}
