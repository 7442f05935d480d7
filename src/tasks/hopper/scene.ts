/**
 * The hopper's scene: our MJCF with the physical parameters of Gymnasium's hopper.xml (Hopper-v5;
 * MIT): a planar torso, thigh, leg and foot, armature 1 and damping 1 on the leg joints, motors of
 * gear 200, RK4 at 2 ms. Contacts are soft (solref 0.02 1, solimp 0.8 0.8 0.01, margin 1 mm),
 * frictionless in torsion (condim 1) except against the floor (condim 3).
 */
import { floorMjcf, mjcfElement } from '../kit/locomotion';
import { motorsMjcf, planarLegMjcf, planarTorsoMjcf } from '../kit/planar-walker';

export const HOPPER_TIMESTEP = 0.002;
const BODY_RGBA = [0.8, 0.6, 0.4, 1] as const;

export function hopperMjcf(): string {
  const leg = planarLegMjcf({ suffix: '', thighRadius: 0.05, rgba: BODY_RGBA, foot: { offset: 0.13, centre: -0.065, halfLength: 0.195, friction: 2 } });
  return mjcfElement('mujoco', { model: 'hopper' }, [
    mjcfElement('compiler', { angle: 'degree', inertiafromgeom: 'true' }),
    mjcfElement('option', { timestep: HOPPER_TIMESTEP, integrator: 'RK4' }),
    mjcfElement('default', {}, [
      mjcfElement('joint', { limited: 'true', armature: 1, damping: 1 }),
      mjcfElement('geom', { contype: 1, conaffinity: 1, condim: 1, margin: 0.001, solref: [0.02, 1], solimp: [0.8, 0.8, 0.01], rgba: BODY_RGBA }),
    ]),
    mjcfElement('worldbody', {}, [
      floorMjcf({ size: [20, 20, 0.125], condim: 3, rgba: [0.8, 0.9, 0.8, 1] }),
      planarTorsoMjcf(0.05, BODY_RGBA, [leg]),
    ]),
    motorsMjcf(['thigh_joint', 'leg_joint', 'foot_joint'], 200),
  ]);
}
