/**
 * pendulum-swingup: swing a pole up and hold it there with a weak torque motor. Motor control
 * (each action dim is a torque scaled to the actuator's ctrlrange), no success rule and no
 * termination: runs are ranked by return. Reward per step: the tip's height term cos(θ) minus
 * small velocity and torque costs, so returns lie far outside [0, 1].
 */
const wrap = (angle) => Math.atan2(Math.sin(angle), Math.cos(angle));

export default {
  name: 'pendulum-swingup',
  doc: 'Swing a pole up with a weak motor (torque control, no success rule).',
  scene: 'scene.xml',
  control: { kind: 'motor' },
  frameSkip: 2,
  maxEpisodeSteps: 200,
  observation: [
    {
      name: 'angle', dim: 2, doc: 'cos θ, sin θ of the pole (θ = 0 hanging down)',
      read: (view, out, at) => { out[at] = Math.cos(view.arrays.qpos[0]); out[at + 1] = Math.sin(view.arrays.qpos[0]); },
    },
    { name: 'angular_velocity', dim: 1, doc: 'dθ/dt (rad/s)', read: (view, out, at) => { out[at] = view.arrays.qvel[0]; } },
  ],
  reset(view, rng) {
    view.arrays.qpos[0] = 0.2 * (2 * rng.uniform() - 1);
    view.arrays.qvel[0] = 0.2 * (2 * rng.uniform() - 1);
  },
  step(view) {
    const theta = wrap(view.arrays.qpos[0]);
    const upright = -Math.cos(theta);
    const torque = view.arrays.ctrl[0];
    return { reward: upright - 0.01 * view.arrays.qvel[0] ** 2 - 0.001 * torque ** 2, terminated: false, info: { upright } };
  },
  render: { camera: { position: [0, -2.2, 1], target: [0, 0, 0.8] }, endEffectorSite: 'tip' },
};
