/**
 * Bench group 'env' (DESIGN.md §10): env throughput in one thread and over the env threads a
 * training run starts, our per-step overhead over bare mj_step in the same process, MuJoCo's
 * physics rate on our wasm against native MuJoCo (physics-vs-native.ts), and the ray-cast cameras'
 * frame rates and share of a depth point-cloud env step (render-bench.ts).
 */
import { availableParallelism } from 'node:os';
import type { BenchRow } from './bench-row';
import { createNodeShardedEnv, loadMujocoNode } from '../mujoco-node';
import { VectorEnv } from '../../core/envs/vector-env';
import { resolveEnvWorkers } from '../../core/config/env-workers';
import { getTask, taskNames } from '../../core/envs/task-registry';
import type { TaskName } from '../../core/envs/task-types';
import { registerBuiltInTasks } from '../../tasks';
import { createRng } from '../../core/random';
import { findTestspeed, TESTSPEED_INSTALL } from './native-testspeed';
import { physicsVsNativeRows, type NativeModel } from './physics-vs-native';
import { gymReferenceModels } from './gym-reference-models';
import { median } from './bench-timing';
import { renderBenchRows } from './render-bench';

/** A default training run's batch: 16 envs, chunks of 4 env steps per call. */
const NUM_ENVS = 16;
const CHUNK = 4;
const MEASURE_MS = 1000;
/** Stepping before timing: V8 recompiles MuJoCo's hot wasm functions on background threads for about a second. */
const WARMUP_MS = 1500;
/** One thread and all threads are timed in alternating rounds; the medians are reported. */
const ROUNDS = 3;

/** Smooth random actions [plans][numEnvs × CHUNK × A] so the robot moves and touches things like a policy would. */
function actionPlan(numEnvs: number, actionDim: number, plans: number): Float32Array[] {
  const rng = createRng(123);
  const current = new Float32Array(numEnvs * CHUNK * actionDim);
  return Array.from({ length: plans }, () => {
    for (let element = 0; element < current.length; element++) current[element] = Math.max(-1, Math.min(1, 0.8 * current[element] + 0.5 * rng.normal()));
    return current.slice();
  });
}

/** Env steps per second of `step` over `ms`. */
async function envRate(step: (actions: Float32Array) => unknown, plan: Float32Array[], ms = MEASURE_MS): Promise<number> {
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await step(plan[calls % plan.length]);
    calls++;
  }
  return (calls * NUM_ENVS * CHUNK) / ((performance.now() - start) / 1000);
}

async function benchTask(task: TaskName, workers: number): Promise<BenchRow[]> {
  const mj = await loadMujocoNode();
  const definition = getTask(task);
  const substeps = definition.frameSkip;
  const plan = actionPlan(NUM_ENVS, definition.controls.get(definition.defaultControl)!.dim, 64);
  const seeds = Array.from({ length: NUM_ENVS }, (_, envIndex) => envIndex);
  const env = new VectorEnv(mj, { task, numEnvs: NUM_ENVS, recordEpisodes: false });
  const sharded = await createNodeShardedEnv({ task, numEnvs: NUM_ENVS, recordEpisodes: false }, { numWorkers: workers });
  const oneThread: number[] = [];
  const allThreads: number[] = [];
  let overhead: number;
  let bareStepsPerS: number;
  try {
    env.reset(seeds);
    await sharded.reset(seeds);
    await envRate((actions) => env.stepChunk(actions, CHUNK, 1), plan, WARMUP_MS);
    await envRate((actions) => sharded.stepChunk(actions, CHUNK, 1), plan, WARMUP_MS);
    // One thread: our full step (controls, substeps, obs, reward, auto-reset), timing mj_step inside it.
    for (let envIndex = 0; envIndex < NUM_ENVS; envIndex++) env.env(envIndex).timePhysics = true;
    let oneThreadMs = 0;
    const stepsBefore = env.metrics().envSteps;
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      oneThread.push(await envRate((actions) => env.stepChunk(actions, CHUNK, 1), plan));
      oneThreadMs += performance.now() - start;
      allThreads.push(await envRate((actions) => sharded.stepChunk(actions, CHUNK, 1), plan));
    }
    let physicsMs = 0;
    for (let envIndex = 0; envIndex < NUM_ENVS; envIndex++) physicsMs += env.env(envIndex).physicsMs;
    overhead = (oneThreadMs - physicsMs) / physicsMs;
    const envSteps = env.metrics().envSteps - stepsBefore;
    bareStepsPerS = (envSteps * substeps) / (physicsMs / 1000);
  } finally {
    env.dispose();
    await sharded.dispose();
  }
  const envStepsPerS = median(oneThread);
  const allStepsPerS = median(allThreads);
  const speedup = median(allThreads.map((rate, round) => rate / oneThread[round]));
  const note = `${NUM_ENVS} envs, chunks of ${CHUNK} env steps per call, ${substeps} physics steps per env step, the task's default control, state obs; median of ${ROUNDS}`;
  const shared = 'the machine\'s other jobs share its cores';
  return [
    { group: 'env', task, metric: 'env_steps_per_s_1proc', value: envStepsPerS, unit: 'steps/s', note: `${note}; in the calling thread (env.workers=1)` },
    { group: 'env', task, metric: 'physics_steps_per_s_1proc', value: envStepsPerS * substeps, unit: 'mj_step/s', note: `implied by env steps × ${substeps}; inside mj_step alone: ${bareStepsPerS.toFixed(0)}/s` },
    { group: 'env', task, metric: 'env_steps_per_s_all', value: allStepsPerS, unit: 'steps/s', note: `${note}; ${workers} env worker threads; ${shared}` },
    { group: 'env', task, metric: 'workers', value: workers, unit: 'workers', note: `${availableParallelism()} cores; a training run's default (env.workers=0: one per core)` },
    { group: 'env', task, metric: 'thread_speedup', value: speedup, unit: '×', note: `env_steps_per_s_all / env_steps_per_s_1proc, median of ${ROUNDS} back-to-back rounds; ideal ${workers}; ${shared}` },
    { group: 'env', task, metric: 'overhead_vs_bare_mj_step', value: overhead, unit: 'fraction', note: '(step time − time in mj_step) / time in mj_step, same run; target ≤ 0.10' },
  ];
}

/** `tasks` limits the rows to those tasks (default: every registered task, and Gymnasium's reference files). */
export async function runBench(tasks?: readonly string[]): Promise<BenchRow[]> {
  registerBuiltInTasks();
  const selected = tasks ?? taskNames();
  const workers = resolveEnvWorkers(0, NUM_ENVS, availableParallelism());
  const rows: BenchRow[] = [];
  for (const task of selected) {
    console.error(`env bench: ${task}`);
    rows.push(...(await benchTask(task, workers)));
  }
  rows.push(...renderBenchRows(await loadMujocoNode(), selected));
  const testspeed = findTestspeed();
  if (!testspeed) {
    console.error(`env bench: mujoco-testspeed not found, so no physics_vs_native rows; install it with: ${TESTSPEED_INSTALL}`);
    return rows;
  }
  const models: NativeModel[] = selected.map((task) => ({ label: task, xml: getTask(task).scene.xml, islands: getTask(task).islands }));
  if (!tasks) models.push(...gymReferenceModels());
  rows.push(...physicsVsNativeRows(await loadMujocoNode(), testspeed, models));
  return rows;
}
