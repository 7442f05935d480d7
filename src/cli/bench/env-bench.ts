/**
 * Bench group 'env' (DESIGN.md §10): env throughput in one thread and over all
 * env workers, and our per-step overhead over bare mj_step in the same process.
 */
import { availableParallelism } from 'node:os';
import type { BenchRow } from './bench-row';
import { createNodeShardedEnv, loadMujocoNode } from '../mujoco-node';
import { VectorEnv } from '../../core/envs/vector-env';
import { defaultWorkerCount } from '../../core/envs/sharded-vector-env';
import { getTask, taskNames } from '../../core/envs/task-registry';
import type { TaskName } from '../../core/envs/task-types';
import { registerBuiltInTasks } from '../../tasks';
import { createRng } from '../../core/random';

const NUM_ENVS = 8;
const MEASURE_MS = 2000;

/** Smooth random actions [steps][numEnvs × A] so the robot moves and touches things like a policy would. */
function actionPlan(numEnvs: number, actionDim: number, steps: number): Float32Array[] {
  const rng = createRng(123);
  const current = new Float32Array(numEnvs * actionDim);
  return Array.from({ length: steps }, () => {
    for (let element = 0; element < current.length; element++) current[element] = Math.max(-1, Math.min(1, 0.8 * current[element] + 0.5 * rng.normal()));
    return current.slice();
  });
}

async function benchTask(task: TaskName, workers: number): Promise<BenchRow[]> {
  const mj = await loadMujocoNode();
  const definition = getTask(task);
  const substeps = definition.frameSkip;
  const plan = actionPlan(NUM_ENVS, definition.controls.get(definition.defaultControl)!.dim, 64);
  // One thread: our full step (IK, substeps, obs, reward, auto-reset).
  const env = new VectorEnv(mj, { task, numEnvs: NUM_ENVS, recordEpisodes: false });
  let envStepsPerS: number;
  let overhead: number;
  let bareStepsPerS: number;
  try {
    env.reset(Array.from({ length: NUM_ENVS }, (_, envIndex) => envIndex));
    for (let warm = 0; warm < 10; warm++) env.step(plan[warm % plan.length]);
    for (let envIndex = 0; envIndex < NUM_ENVS; envIndex++) env.env(envIndex).timePhysics = true;
    let steps = 0;
    const start = performance.now();
    while (performance.now() - start < MEASURE_MS) {
      env.step(plan[steps % plan.length]);
      steps++;
    }
    const totalMs = performance.now() - start;
    envStepsPerS = (steps * NUM_ENVS) / (totalMs / 1000);
    // Same run, same states: time inside mj_step versus everything else we do per step.
    let physicsMs = 0;
    for (let envIndex = 0; envIndex < NUM_ENVS; envIndex++) physicsMs += env.env(envIndex).physicsMs;
    overhead = (totalMs - physicsMs) / physicsMs;
    bareStepsPerS = (steps * NUM_ENVS * substeps) / (physicsMs / 1000);
  } finally {
    env.dispose();
  }
  const physicsStepsPerS = envStepsPerS * substeps;
  // All workers.
  const sharded = await createNodeShardedEnv({ task, numEnvs: NUM_ENVS, recordEpisodes: false }, { numWorkers: workers });
  let allStepsPerS: number;
  try {
    await sharded.reset(Array.from({ length: NUM_ENVS }, (_, envIndex) => envIndex));
    for (let warm = 0; warm < 10; warm++) await sharded.step(plan[warm % plan.length]);
    let steps = 0;
    const start = performance.now();
    while (performance.now() - start < MEASURE_MS) {
      await sharded.step(plan[steps % plan.length]);
      steps++;
    }
    allStepsPerS = (steps * NUM_ENVS) / ((performance.now() - start) / 1000);
  } finally {
    await sharded.dispose();
  }
  const efficiency = allStepsPerS / (workers * envStepsPerS);
  const note = `${NUM_ENVS} envs, ${substeps} physics steps per env step, the task's default control, state obs`;
  return [
    { group: 'env', task, metric: 'env_steps_per_s_1proc', value: envStepsPerS, unit: 'steps/s', note },
    { group: 'env', task, metric: 'physics_steps_per_s_1proc', value: physicsStepsPerS, unit: 'mj_step/s', note: `implied by env steps × ${substeps}; inside mj_step alone: ${bareStepsPerS.toFixed(0)}/s` },
    { group: 'env', task, metric: 'env_steps_per_s_all', value: allStepsPerS, unit: 'steps/s', note: `parallel efficiency ${(100 * efficiency).toFixed(0)}% of ${workers} × 1proc; timings share the CPU with any other jobs running` },
    { group: 'env', task, metric: 'workers', value: workers, unit: 'workers', note: `${availableParallelism()} cores, default cores − 1` },
    { group: 'env', task, metric: 'overhead_vs_bare_mj_step', value: overhead, unit: 'fraction', note: '(step time − time in mj_step) / time in mj_step, same run; target ≤ 0.10' },
  ];
}

export async function runBench(): Promise<BenchRow[]> {
  const workers = defaultWorkerCount(NUM_ENVS, availableParallelism());
  const rows: BenchRow[] = [];
  registerBuiltInTasks();
  for (const task of taskNames()) {
    console.error(`env bench: ${task}`);
    rows.push(...(await benchTask(task, workers)));
  }
  return rows;
}
