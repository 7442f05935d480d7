/**
 * testspeed's protocol (native-testspeed.ts) on our MuJoCo wasm, in this thread: the same file,
 * start state, control noise and step count, so both engines integrate the same trajectory.
 * Controls go through a typed-array view of data.ctrl taken once, as our envs write them.
 */
import type { Mujoco } from '../../core/envs/mujoco-types';
import { compileModel } from '../../core/envs/task-scene';
import { halton } from './halton';
import type { SpeedRun } from './native-testspeed';
import { threadCpuSeconds } from './thread-cpu';

/** `islands: false` switches island discovery off, as a task that sets TaskSpec.islands runs its scene. */
export function runWasmTestspeed(mj: Mujoco, xml: string, nstep: number, ctrlNoise: number, islands = true): SpeedRun {
  const model = compileModel(mj, { xml, assets: new Map() }, 'the speed-test scene');
  if (!islands) (model.opt as unknown as { disableflags: number }).disableflags |= mj.mjtDisableBit.mjDSBL_ISLAND.value;
  const data = new mj.MjData(model);
  try {
    const { nq, nv, na, nu } = model;
    const testKey = mj.mj_name2id(model, mj.mjtObj.mjOBJ_KEY.value, 'test');
    if (testKey >= 0) {
      (data.qpos as Float64Array).set((model.key_qpos as Float64Array).subarray(testKey * nq, (testKey + 1) * nq));
      (data.qvel as Float64Array).set((model.key_qvel as Float64Array).subarray(testKey * nv, (testKey + 1) * nv));
      if (na > 0) (data.act as Float64Array).set((model.key_act as Float64Array).subarray(testKey * na, (testKey + 1) * na));
    }
    // testspeed's noise: centre ± ctrlNoise × half-range on limited actuators ([0, 0] is MuJoCo's unlimited).
    const range = Float64Array.from(model.actuator_ctrlrange as Float64Array);
    const centre = new Float64Array(nu);
    const radius = new Float64Array(nu);
    for (let actuator = 0; actuator < nu; actuator++) {
      const [low, high] = [range[2 * actuator], range[2 * actuator + 1]];
      const limited = high > low;
      centre[actuator] = limited ? (high + low) / 2 : 0;
      radius[actuator] = (limited ? (high - low) / 2 : 1) * ctrlNoise;
    }
    let ctrl = data.ctrl as Float64Array;
    let contacts = 0;
    let constraints = 0;
    const wallStart = performance.now();
    const cpuStart = threadCpuSeconds();
    for (let step = 0; step < nstep; step++) {
      // A view has length 0 once wasm memory growth detached its buffer.
      if (ctrl.length !== nu) ctrl = data.ctrl as Float64Array;
      if (ctrlNoise) for (let actuator = 0; actuator < nu; actuator++) ctrl[actuator] = centre[actuator] + radius[actuator] * (2 * halton(step, actuator + 2) - 1);
      mj.mj_step(model, data);
      contacts += data.ncon;
      constraints += data.nefc;
    }
    const cpuSeconds = threadCpuSeconds() - cpuStart;
    const wallSeconds = (performance.now() - wallStart) / 1000;
    return { wallStepsPerS: nstep / wallSeconds, cpuStepsPerS: nstep / cpuSeconds, contactsPerStep: contacts / nstep, constraintsPerStep: constraints / nstep };
  } finally {
    data.delete();
    model.delete();
  }
}
