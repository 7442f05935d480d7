/**
 * Rows `physics_steps_per_s_native`, `physics_steps_per_s_wasm` and `physics_vs_native` of the env
 * bench: MuJoCo's testspeed protocol on one model, natively (Debian's mujoco-testspeed) and on
 * our wasm in this thread, alternating rounds, medians. Rates are per CPU second, since the
 * machine may be shared: a rate per wall second would count the time a run waited for a core.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mujoco } from '../../core/envs/mujoco-types';
import type { BenchRow } from './bench-row';
import { runTestspeed, writeNativeScene, type SpeedRun } from './native-testspeed';
import { runWasmTestspeed } from './wasm-testspeed';
import { median } from './bench-timing';

/** testspeed's own default: small noise, so the contact state is not frozen. */
const CTRL_NOISE = 0.01;
const ROUNDS = 3;
/** Native loop CPU time to aim for (its CPU clock ticks at 10 ms); both engines run the same step count. */
const TARGET_NATIVE_S = 0.5;

const rate = (run: SpeedRun) => run.cpuStepsPerS ?? run.wallStepsPerS;

export interface NativeModel {
  /** Row label: a task name, or a reference file. */
  label: string;
  xml: string;
  /** false: our wasm runs it with island discovery off, as the task's env does (TaskSpec.islands). */
  islands?: boolean;
}

export function physicsVsNativeRows(mj: Mujoco, binary: string, models: readonly NativeModel[]): BenchRow[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-testspeed-'));
  try {
    return models.flatMap((model, index) => modelRows(mj, binary, model, path.join(dir, `model-${index}.xml`)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function modelRows(mj: Mujoco, binary: string, model: NativeModel, file: string): BenchRow[] {
  console.error(`env bench: ${model.label} against mujoco-testspeed`);
  const scene = writeNativeScene(binary, file, model.xml);
  // Loading and compiling the file is in testspeed's CPU time, not in its loop: measured once and taken off.
  const loadCpu = median(Array.from({ length: 5 }, () => {
    const run = runTestspeed(binary, file, 1, CTRL_NOISE);
    return run.cpuStepsPerS === undefined ? 0 : 1 / run.cpuStepsPerS;
  }));
  const probe = runTestspeed(binary, file, 5000, CTRL_NOISE, loadCpu);
  const nstep = Math.max(5000, Math.min(300_000, Math.round(rate(probe) * TARGET_NATIVE_S)));
  const islands = model.islands ?? true;
  runWasmTestspeed(mj, scene.xml, Math.min(nstep, 2000), CTRL_NOISE, islands); // compiles the hot wasm paths
  const native: SpeedRun[] = [];
  const wasm: SpeedRun[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    native.push(runTestspeed(binary, file, nstep, CTRL_NOISE, loadCpu));
    wasm.push(runWasmTestspeed(mj, scene.xml, nstep, CTRL_NOISE, islands));
  }
  const cpuTimed = native.every((run) => run.cpuStepsPerS !== undefined);
  const ratio = median(native.map((run, round) => rate(wasm[round]) / rate(run)));
  const wallRatio = median(native.map((run, round) => wasm[round].wallStepsPerS / run.wallStepsPerS));
  const work = (runs: SpeedRun[]) => `${runs[0].contactsPerStep.toFixed(2)} contacts, ${runs[0].constraintsPerStep.toFixed(2)} constraints per step`;
  const protocol = `testspeed's protocol: ${nstep} steps from qpos0, ctrl = centre + ${CTRL_NOISE} × half-range × (2·Halton − 1) each step, one thread`
    + (islands ? '' : '; island discovery off, as the task runs it')
    + (scene.changes.length ? `; scene made readable by MuJoCo 2.2.2 for both engines (${scene.changes.join(', ')})` : '');
  const unit = cpuTimed ? 'mj_step/cpu-s' : 'mj_step/s';
  return [
    { group: 'env', task: model.label, metric: 'physics_steps_per_s_native', value: median(native.map(rate)), unit, note: `mujoco-testspeed (MuJoCo 2.2.2, native), median of ${ROUNDS}; ${work(native)}; wall ${median(native.map((run) => run.wallStepsPerS)).toFixed(0)}/s` },
    { group: 'env', task: model.label, metric: 'physics_steps_per_s_wasm', value: median(wasm.map(rate)), unit, note: `@mujoco/mujoco wasm in this thread, ${protocol}; ${work(wasm)}; wall ${median(wasm.map((run) => run.wallStepsPerS)).toFixed(0)}/s` },
    { group: 'env', task: model.label, metric: 'physics_vs_native', value: ratio, unit: '×', note: `wasm / native ${cpuTimed ? 'per CPU second' : 'per wall second'}, median of ${ROUNDS} alternating rounds (per wall second: ${wallRatio.toFixed(2)}); target ≥ 0.9` },
  ];
}
