/**
 * Prints qpos and qvel after each of `steps` control steps of `skip` physics steps of an MJCF file
 * under the fixed action sequence of stand-ins/mjshim.c, with this project's MuJoCo wasm module.
 * Usage: npx tsx scripts/cleanrl-crosscheck/roll.ts FILE.xml STEPS SKIP
 */
import { readFileSync } from 'node:fs';
import { loadMujocoNode } from '../../src/cli/mujoco-node';

const [file, stepsArg, skipArg] = process.argv.slice(2);
const mj = await loadMujocoNode();
const model = mj.MjModel.from_xml_string(readFileSync(file, 'utf8'));
const data = new mj.MjData(model);
const lines: string[] = [];
for (let step = 0; step < Number(stepsArg); step++) {
  const ctrl = data.ctrl as Float64Array;
  for (let index = 0; index < model.nu; index++) ctrl[index] = 0.9 * Math.sin(0.37 * step + 1.3 * index);
  for (let substep = 0; substep < Number(skipArg); substep++) mj.mj_step(model, data);
  lines.push([...(data.qpos as Float64Array), ...(data.qvel as Float64Array)].map((value) => value.toPrecision(17)).join(' '));
}
console.log(lines.join('\n'));
data.delete();
model.delete();
