/**
 * `npm run results -- tasks=lift,pick-cube,pick-cube-pointcloud seeds=0,1,2 runs=runs/reproduce ckpts=public/checkpoints
 * episodes=100 seed=2000000 out=public/results/results.md`: evaluates each task's BC checkpoint
 * (`<ckpts>/<task>-bc.flowtune`) and the final checkpoint of each fine-tuning run
 * (`<runs>/<task>-ppo-s<seed>/checkpoints/final.flowtune`) on the same fresh seeds, reads each
 * run's env steps and wall-clock from its metrics.jsonl, and writes the markdown table. A task
 * without a success rule (DESIGN.md §13) is measured by final mean return.
 *
 * `compare=recipe` compares BC → PPO (`<task>-ppo-s<seed>`) with BC → stage 2 → PPO
 * (`<runs>/<task>-offline-s<seed>.flowtune`, then `<task>-offline-ppo-s<seed>`): the success each
 * run started from and ended at, on the same fresh seeds, and the env steps to 90% smoothed
 * rollout success (`npm run reproduce -- recipe`).
 *
 * `compare=locomotion` sets Gaussian PPO, BC → flow PPO and diffusion BC → DPPO beside the published
 * figures on the Gym tasks; `compare=methods` (methods-compare.ts) every fine-tuning method of
 * methods.ts per task, with a learning-curve figure per task (`npm run reproduce -- methods`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readDecimal } from '../core/config';
import { envStepsToReach } from '../core/metrics';
import { parseCliArgs, runCli, UsageError } from './cli-args';
import { taskHasSuccess } from '../core/rl/evaluate';
import { formatRecipeTable, type RecipeResult, type RecipeSeedResult } from './recipe-table';
import { formatResultsTable, type TaskResult } from './results-table';
import { formatLocomotionTable, keptCells, type LocomotionRow, type LocomotionSeed, type PublishedFigures } from './locomotion-table';
import { evaluator, lastRecord, runRecords, writeTable, type Measured, type ResultsArgs } from './results-eval';
import { keptFromTable } from './kept-rows';
import { compareMethods, METHODS_PAGE } from './methods-compare';
import { METHOD_ROWS } from './methods';
import { taskOfRow } from './task-row';
import { prepareRuntime } from './run-setup';
import { isTaskPath, resolveTask } from './task-loading';

/** The published figures the locomotion table sits beside, with their sources. */
const PUBLISHED_LOCOMOTION = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'public', 'results', 'published-locomotion.json');

/** The rows compare=none, recipe and locomotion take when tasks= names none. */
const DEFAULT_TASKS = 'lift,pick-cube';

const SPEC = {
  tasks: { kind: 'string', default: '', doc: `comma-separated tasks, or <task>-pointcloud / <task>-rgb for a point-cloud or camera variant, or ./path/ to a task of your own (default ${DEFAULT_TASKS}; with compare=methods ${METHOD_ROWS.join(',')})` },
  seeds: { kind: 'string', default: '0,1,2', doc: 'comma-separated training seeds' },
  runs: { kind: 'string', default: 'runs/reproduce', doc: 'folder holding <task>-ppo-s<seed> run folders' },
  ckpts: { kind: 'string', default: 'public/checkpoints', doc: 'folder holding <task>-bc.flowtune' },
  episodes: { kind: 'int', min: 1, max: 100_000, default: 100, doc: 'evaluation episodes per checkpoint' },
  seed: { kind: 'int', min: 0, max: 2 ** 31 - 1, default: 2_000_000, doc: 'first eval reset seed, apart from training and in-run eval seeds' },
  out: { kind: 'string', default: '', doc: `markdown file to write (the table is printed either way); compare=methods writes ${METHODS_PAGE} when none is named, and its figures beside it` },
  compare: {
    kind: 'enum', values: ['none', 'recipe', 'locomotion', 'methods'], default: 'none',
    doc: 'recipe: BC → PPO against BC → stage 2 → PPO per task and seed; locomotion: Gaussian PPO from scratch (<task>-gaussian-s<seed>), BC → flow PPO (<task>-ppo-s<seed> from <task>-bc.flowtune) and diffusion BC → DPPO (<task>-dppo-s<seed> from <task>-diffusion-bc.flowtune) beside the published figures; methods: every fine-tuning method of src/cli/methods.ts per task (Gaussian PPO, Flow-SDE, ReinFlow, DPPO, ShortCut BC → ReinFlow), with a learning-curve figure per task',
  },
  keep: { kind: 'string', default: '', doc: 'compare=locomotion or methods: comma-separated tasks whose rows are carried over from the existing out= table instead of evaluated (their run folders need not exist); with methods also TASK:METHOD, one method\'s row of an evaluated task (e.g. walker2d:gaussian)' },
  wall_note: { kind: 'string', default: '', doc: 'compare=locomotion or methods: what shared the machine while the runs trained, printed under the table beside the wall-clock' },
} as const;

/** Sample efficiency: env steps until the rollout success, smoothed as the learning-curve plots are, first reaches this. */
const RECIPE_THRESHOLD = 0.9;
const RECIPE_SMOOTHING = 0.9;

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npm run results --' });
  await prepareRuntime();
  const seeds = args.seeds.split(',').map((text) => readDecimal(text.trim()).value);
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new UsageError('seeds', `seeds must be comma-separated integers, got '${args.seeds}'`);
  // A user's task is loaded from its path and named as its module names it (its run folders use that name).
  const tasks: string[] = [];
  const rows = args.tasks || (args.compare === 'methods' ? METHOD_ROWS.join(',') : DEFAULT_TASKS);
  for (const row of rows.split(',')) tasks.push(isTaskPath(row) ? await resolveTask(row) : row);
  if (args.compare === 'recipe') {
    await compareRecipes(args, tasks, seeds);
    return;
  }
  if (args.compare === 'methods') {
    await compareMethods(args, tasks, seeds);
    return;
  }
  if (args.compare === 'locomotion') {
    await compareLocomotion(args, tasks, seeds);
    return;
  }
  const results: TaskResult[] = [];
  for (const task of tasks) {
    const evaluate = evaluator(args, task);
    const bc = await evaluate(path.join(args.ckpts, `${task}-bc.flowtune`));
    const seedResults = [];
    for (const seed of seeds) {
      const runDir = path.join(args.runs, `${task}-ppo-s${seed}`);
      const final = await evaluate(path.join(runDir, 'checkpoints', 'final.flowtune'));
      seedResults.push({ seed, ...lastRecord(runDir), successRate: final.successRate, ...(final.successRate === null ? { meanReturn: final.meanReturn } : {}) });
    }
    results.push({ task, bcSuccessRate: bc.successRate, ...(bc.successRate === null ? { bcMeanReturn: bc.meanReturn } : {}), seeds: seedResults, episodes: args.episodes });
  }
  writeTable(formatResultsTable(results), args.out);
}

/** compare=recipe compares success rates; a task without a success rule has none. */
function noSuccessRule(task: string): UsageError {
  return new UsageError('compare', `compare=recipe compares success rates (and env steps to ${RECIPE_THRESHOLD * 100}% success); task '${task}' has no success rule, so compare its runs with compare=none`);
}

async function successOf(measured: Promise<Measured>, task: string): Promise<number> {
  const { successRate } = await measured;
  if (successRate === null) throw noSuccessRule(task);
  return successRate;
}

async function compareRecipes(args: ResultsArgs, tasks: readonly string[], seeds: number[]): Promise<void> {
  for (const task of tasks) if (!taskHasSuccess(taskOfRow(task))) throw noSuccessRule(task);
  const results: RecipeResult[] = [];
  for (const task of tasks) {
    const evaluate = evaluator(args, task);
    const bcSuccessRate = await successOf(evaluate(path.join(args.ckpts, `${task}-bc.flowtune`)), task);
    const seedResult = async (seed: number, runName: string, startSuccessRate: number): Promise<RecipeSeedResult> => {
      const runDir = path.join(args.runs, runName);
      const records = runRecords(runDir);
      return {
        seed, startSuccessRate, finalSuccessRate: await successOf(evaluate(path.join(runDir, 'checkpoints', 'final.flowtune')), task),
        envStepsToThreshold: envStepsToReach(records, 'charts/success_rate', RECIPE_THRESHOLD, RECIPE_SMOOTHING),
        wallSeconds: Number(records.at(-1)!['progress/wall_s']),
      };
    };
    const direct: RecipeSeedResult[] = [];
    const staged: RecipeSeedResult[] = [];
    for (const seed of seeds) {
      direct.push(await seedResult(seed, `${task}-ppo-s${seed}`, bcSuccessRate));
      const offlineSuccess = await successOf(evaluate(path.join(args.runs, `${task}-offline-s${seed}.flowtune`)), task);
      staged.push(await seedResult(seed, `${task}-offline-ppo-s${seed}`, offlineSuccess));
    }
    results.push({ task, recipe: 'BC → PPO', seeds: direct }, { task, recipe: 'BC → offline → PPO', seeds: staged });
  }
  writeTable(formatRecipeTable(results, RECIPE_THRESHOLD), args.out);
}

/**
 * A run folder's final checkpoint evaluated, with its env steps and wall-clock; undefined when the
 * folder holds no run, or a run with no final checkpoint yet (said in one warning line).
 */
async function locomotionSeed(args: ResultsArgs, task: string, runName: string, seed: number): Promise<LocomotionSeed | undefined> {
  const runDir = path.join(args.runs, runName);
  if (!existsSync(path.join(runDir, 'metrics.jsonl'))) return undefined;
  if (!existsSync(path.join(runDir, 'checkpoints', 'final.flowtune'))) {
    console.error(`warning: ${runDir} has no checkpoints/final.flowtune (still training, or stopped before its end); left out of the table`);
    return undefined;
  }
  const measured = await evaluator(args, task)(path.join(runDir, 'checkpoints', 'final.flowtune'));
  return { seed, meanReturn: measured.meanReturn, ...lastRecord(runDir) };
}

type LocomotionArgs = ResultsArgs & { keep: string; wall_note: string };

async function compareLocomotion(args: LocomotionArgs, tasks: readonly string[], seeds: number[]): Promise<void> {
  const published = JSON.parse(readFileSync(PUBLISHED_LOCOMOTION, 'utf8')) as PublishedFigures;
  const kept = keptFromTable(args, tasks, keptCells);
  const rows: LocomotionRow[] = [];
  for (const task of tasks) {
    const gaussian: LocomotionSeed[] = [];
    const flowSeeds: LocomotionSeed[] = [];
    const dppoSeeds: LocomotionSeed[] = [];
    for (const seed of seeds) {
      const dppo = await locomotionSeed(args, task, `${task}-dppo-s${seed}`, seed);
      if (dppo) dppoSeeds.push(dppo);
      const fromScratch = await locomotionSeed(args, task, `${task}-gaussian-s${seed}`, seed);
      if (fromScratch) gaussian.push(fromScratch);
      const flow = await locomotionSeed(args, task, `${task}-ppo-s${seed}`, seed);
      if (flow) flowSeeds.push(flow);
    }
    const bcFile = path.join(args.ckpts, `${task}-bc.flowtune`);
    // The BC checkpoint's own return shows even before its PPO runs finish ("911 → not run").
    const flow = existsSync(bcFile) ? { bcReturn: (await evaluator(args, task)(bcFile)).meanReturn, seeds: flowSeeds } : undefined;
    const diffusionBcFile = path.join(args.ckpts, `${task}-diffusion-bc.flowtune`);
    const dppo = existsSync(diffusionBcFile) ? { bcReturn: (await evaluator(args, task)(diffusionBcFile)).meanReturn, seeds: dppoSeeds } : undefined;
    if (gaussian.length === 0 && !flow && !dppo) throw new UsageError('runs', `${args.runs} holds no ${task}-gaussian-s<seed>, ${task}-ppo-s<seed> or ${task}-dppo-s<seed> run for seeds ${seeds.join(', ')}`);
    rows.push({ task, gaussian, ...(flow ? { flow } : {}), ...(dppo ? { dppo } : {}), episodes: args.episodes });
  }
  for (const [task, cells] of kept) rows.push({ task, kept: cells, gaussian: [], episodes: args.episodes });
  writeTable(formatLocomotionTable(rows, published, args.wall_note), args.out);
}

void runCli(main);
