/**
 * slide-to-target: push a puck to a random target on a table. Position control (each action
 * dim sets an actuator's target inside its ctrlrange), a scripted expert, and a success rule.
 * One self-contained module with its scene beside it, as the studio's "Add task…" takes it.
 */
const SUCCESS_RADIUS = 0.03;
const TARGET_RANGE = 0.3;
const CTRL_RANGE = 0.4;

export default {
  name: 'slide-to-target',
  doc: 'Slide a puck to a random target (position control, scripted expert).',
  scene: 'scene.xml',
  control: { kind: 'position' },
  frameSkip: 5,
  maxEpisodeSteps: 60,
  hasSuccess: true,
  stateSize: 2,
  observation: [
    { name: 'puck_pos', dim: 2, doc: 'puck x, y (m)', read: (view, out, at) => { out[at] = view.arrays.qpos[0]; out[at + 1] = view.arrays.qpos[1]; } },
    { name: 'puck_vel', dim: 2, doc: 'puck velocity (m/s)', read: (view, out, at) => { out[at] = view.arrays.qvel[0]; out[at + 1] = view.arrays.qvel[1]; } },
    { name: 'target_pos', dim: 2, doc: 'target x, y (m)', read: (view, out, at) => { out[at] = view.state[0]; out[at + 1] = view.state[1]; } },
  ],
  reset(view, rng) {
    for (let axis = 0; axis < 2; axis++) {
      view.state[axis] = TARGET_RANGE * (2 * rng.uniform() - 1);
      view.arrays.qpos[axis] = 0.05 * (2 * rng.uniform() - 1);
    }
    const mocap = view.arrays.mocapPos;
    mocap[0] = view.state[0];
    mocap[1] = view.state[1];
  },
  step(view) {
    const dx = view.state[0] - view.arrays.qpos[0];
    const dy = view.state[1] - view.arrays.qpos[1];
    const distance = Math.hypot(dx, dy);
    const success = distance < SUCCESS_RADIUS;
    return { reward: success ? 1 : -distance, terminated: success, success, info: { distance } };
  },
  expert: {
    create(noise, rng) {
      return {
        reset() {},
        act(view, out) {
          // Aim a little past the target so the position servo settles on it.
          for (let axis = 0; axis < 2; axis++) {
            const aim = view.state[axis] + 0.3 * (view.state[axis] - view.arrays.qpos[axis]);
            out[axis] = Math.max(-1, Math.min(1, aim / CTRL_RANGE + noise * rng.normal()));
          }
        },
      };
    },
  },
  render: {
    camera: { position: [0, -0.9, 0.9], target: [0, 0, 0] },
    endEffectorSite: 'puck_center',
  },
  pointCloud: { exclude: ['table', 'target'], objects: ['puck'] },
};
