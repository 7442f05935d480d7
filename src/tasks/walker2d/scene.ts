/**
 * The walker's scene: our MJCF with the physical parameters of Gymnasium's walker2d_v5.xml
 * (Walker2d-v5; MIT): the hopper's planar torso with two legs whose feet both have friction 1.9,
 * armature 0.01 and damping 0.1 on the leg joints, motors of gear 100, RK4 at 2 ms. Only the floor
 * collides with the body (conaffinity 0 on the body's geoms).
 */
import { floorMjcf, mjcfElement } from '../kit/locomotion';
import { motorsMjcf, planarLegMjcf, planarTorsoMjcf } from '../kit/planar-walker';

export const WALKER_TIMESTEP = 0.002;
const BODY_RGBA = [0.8, 0.6, 0.4, 1] as const;
const LEFT_RGBA = [0.7, 0.3, 0.6, 1] as const;
const FOOT = { offset: 0.2, centre: -0.1, halfLength: 0.1, friction: 1.9 };

export function walker2dMjcf(): string {
  const right = planarLegMjcf({ suffix: '', thighRadius: 0.05, rgba: BODY_RGBA, foot: FOOT });
  const left = planarLegMjcf({ suffix: '_left', thighRadius: 0.05, rgba: LEFT_RGBA, foot: FOOT });
  return mjcfElement('mujoco', { model: 'walker2d' }, [
    mjcfElement('compiler', { angle: 'degree', inertiafromgeom: 'true' }),
    mjcfElement('option', { timestep: WALKER_TIMESTEP, integrator: 'RK4' }),
    mjcfElement('default', {}, [
      mjcfElement('joint', { limited: 'true', armature: 0.01, damping: 0.1 }),
      mjcfElement('geom', { contype: 1, conaffinity: 0, condim: 3, density: 1000, friction: [0.7, 0.1, 0.1], rgba: BODY_RGBA }),
    ]),
    mjcfElement('worldbody', {}, [
      floorMjcf({ size: [40, 40, 40], conaffinity: 1, condim: 3, rgba: [0.8, 0.9, 0.8, 1] }),
      planarTorsoMjcf(0.05, BODY_RGBA, [right, left]),
    ]),
    motorsMjcf(['thigh_joint', 'leg_joint', 'foot_joint', 'thigh_left_joint', 'leg_left_joint', 'foot_left_joint'], 100),
  ]);
}
