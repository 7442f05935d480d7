/**
 * The planar body Hopper and Walker2d share: a capsule torso on three root joints (slide x, slide
 * z, hinge about y) and legs of thigh, leg and foot capsules hinged about -y. The numbers are the
 * physical parameters of Gymnasium's hopper.xml and walker2d_v5.xml (MIT), which place the torso
 * at 1.25 m and give rootz a reference of 1.25 so qpos[1] is the torso's height.
 */
import { mjcfElement } from './locomotion';

/** Torso centre height; rootz's reference position, so qpos[1] starts at this height. */
export const TORSO_HEIGHT = 1.25;
/** Half the torso capsule's length, and the drop from the torso centre to the hip. */
const TORSO_HALF_LENGTH = 0.19999999999999996;
const THIGH_HALF_LENGTH = 0.22500000000000003;
const THIGH_CENTRE = -0.2250000000000001;
const KNEE_DROP = -0.7000000000000001;
const LEG_HALF_LENGTH = 0.25;
/** The foot capsule lies along x: a quarter turn about -y. */
const FOOT_QUAT = [0.7071067811865476, 0, -0.7071067811865475, 0] as const;
const CAPSULE_FRICTION = 0.9;

export interface FootSpec {
  /** The foot body's x offset from the leg's; the ankle sits back at -x. */
  offset: number;
  /** The foot capsule's centre x in the foot body. */
  centre: number;
  halfLength: number;
  friction: number;
}

export interface LegSpec {
  /** Appended to every body, joint and geom name ('' or '_left'). */
  suffix: string;
  foot: FootSpec;
  rgba?: readonly number[];
  /** Radius of the thigh (and torso) capsule; the leg is 0.04 and the foot 0.06. */
  thighRadius: number;
}

/** thigh → leg → foot, hinged about -y, as a child of the torso. */
export function planarLegMjcf({ suffix, foot, rgba, thighRadius }: LegSpec): string {
  const hinge = (part: string, pos: readonly number[], rangeDegrees: readonly number[]) =>
    mjcfElement('joint', { name: `${part}${suffix}_joint`, type: 'hinge', axis: [0, -1, 0], pos, range: rangeDegrees });
  const footBody = mjcfElement('body', { name: `foot${suffix}`, pos: [foot.offset, 0, -0.35] }, [
    hinge('foot', [-foot.offset, 0, 0.1], [-45, 45]),
    mjcfElement('geom', { name: `foot${suffix}_geom`, type: 'capsule', size: [0.06, foot.halfLength], pos: [foot.centre, 0, 0.1], quat: FOOT_QUAT, friction: foot.friction, rgba }),
  ]);
  const legBody = mjcfElement('body', { name: `leg${suffix}`, pos: [0, 0, KNEE_DROP] }, [
    hinge('leg', [0, 0, LEG_HALF_LENGTH], [-150, 0]),
    mjcfElement('geom', { name: `leg${suffix}_geom`, type: 'capsule', size: [0.04, LEG_HALF_LENGTH], friction: CAPSULE_FRICTION, rgba }),
    footBody,
  ]);
  return mjcfElement('body', { name: `thigh${suffix}`, pos: [0, 0, -TORSO_HALF_LENGTH] }, [
    hinge('thigh', [0, 0, 0], [-150, 0]),
    mjcfElement('geom', { name: `thigh${suffix}_geom`, type: 'capsule', size: [thighRadius, THIGH_HALF_LENGTH], pos: [0, 0, THIGH_CENTRE], friction: CAPSULE_FRICTION, rgba }),
    legBody,
  ]);
}

/** The torso body with its three root joints (no armature, damping or limits) and the given legs. */
export function planarTorsoMjcf(radius: number, rgba: readonly number[], legs: readonly string[]): string {
  const root = (name: string, type: string, axis: readonly number[], pos: readonly number[], extra: Record<string, number> = {}) =>
    mjcfElement('joint', { name, type, axis, pos, ...extra, limited: 'false', armature: 0, damping: 0, stiffness: 0 });
  return mjcfElement('body', { name: 'torso', pos: [0, 0, TORSO_HEIGHT] }, [
    root('rootx', 'slide', [1, 0, 0], [0, 0, -TORSO_HEIGHT]),
    root('rootz', 'slide', [0, 0, 1], [0, 0, -TORSO_HEIGHT], { ref: TORSO_HEIGHT }),
    root('rooty', 'hinge', [0, 1, 0], [0, 0, 0]),
    mjcfElement('geom', { name: 'torso_geom', type: 'capsule', size: [radius, TORSO_HALF_LENGTH], friction: CAPSULE_FRICTION, rgba }),
    ...legs,
  ]);
}

/** One motor per named joint, ctrlrange [-1, 1], with the given gear. */
export function motorsMjcf(joints: readonly string[], gear: number): string {
  return mjcfElement('actuator', {}, joints.map((joint) => mjcfElement('motor', { name: joint, joint, gear, ctrllimited: 'true', ctrlrange: [-1, 1] })));
}
