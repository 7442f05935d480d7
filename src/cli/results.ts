/**
 * `npm run results -- tasks=lift,pick-cube,pick-cube-pointcloud seeds=0,1,2 runs=runs/reproduce ckpts=public/checkpoints
 * episodes=100 seed=2000000 out=public/results/results.md`: evaluates each task's BC checkpoint
 * (`<ckpts>/<task>-bc.flowtune`) and the final checkpoint of each fine-tuning run
 * (`<runs>/<task>-ppo-s<seed>/checkpoints/final.flowtune`) on the same fresh seeds, reads each
 * run's env steps and wall-clock from its metrics.jsonl, and writes the markdown table.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyOverrides, defaultConfig } from '../core/config';
import { parseMetricsJsonl } from '../core/metrics';
import { parseCliArgs, runCli, UsageError } from './cli-args';
import { evaluateCheckpoint } from './evaluate-checkpoint';
import { formatResultsTable, type TaskResult } from './results-table';
import { prepareRuntime } from './run-setup';
import { TASK_NAMES } from '../core/envs/task-types';

const SPEC = {
  tasks: { kind: 'string', default: 'lift,pick-cube', doc: 'comma-separated tasks, or <task>-pointcloud for a point-cloud variant' },
  seeds: { kind: 'string', default: '0,1,2', doc: 'comma-separated training seeds' },
  runs: { kind: 'string', default: 'runs/reproduce', doc: 'folder holding <task>-ppo-s<seed> run folders' },
  ckpts: { kind: 'string', default: 'public/checkpoints', doc: 'folder holding <task>-bc.flowtune' },
  episodes: { kind: 'int', min: 1, max: 100_000, default: 100, doc: 'evaluation episodes per checkpoint' },
  seed: { kind: 'int', min: 0, max: 2 ** 31 - 1, default: 2_000_000, doc: 'first eval reset seed, apart from training and in-run eval seeds' },
  out: { kind: 'string', default: '', doc: 'markdown file to write (the table is printed either way)' },
} as const;

function lastRecord(runDir: string): { envSteps: number; wallSeconds: number } {
  const file = path.join(runDir, 'metrics.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError('runs', `run folder ${runDir} has no metrics.jsonl; train it first (npm run reproduce -- ppo)`);
  }
  const last = parseMetricsJsonl(text).records.at(-1);
  if (!last) throw new UsageError('runs', `${file} has no records`);
  return { envSteps: Number(last['progress/env_steps']), wallSeconds: Number(last['progress/wall_s']) };
}

/** A row is a task, or a task's point-cloud variant `<task>-pointcloud` (its checkpoints decide the observation). */
function taskOfRow(row: string): string {
  const task = row.endsWith('-pointcloud') ? row.slice(0, -'-pointcloud'.length) : row;
  if (!(TASK_NAMES as readonly string[]).includes(task)) throw new UsageError('tasks', `'${row}' is not a task or <task>-pointcloud; tasks: ${TASK_NAMES.join(', ')}`);
  return task;
}

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npm run results --' });
  await prepareRuntime();
  const seeds = args.seeds.split(',').map(Number);
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new UsageError('seeds', `seeds must be comma-separated integers, got '${args.seeds}'`);
  const results: TaskResult[] = [];
  for (const task of args.tasks.split(',')) {
    const config = applyOverrides(defaultConfig(), [`task=${taskOfRow(task)}`]);
    const evaluate = async (file: string) => {
      const result = await evaluateCheckpoint(file, config, [], { episodes: args.episodes, seed: args.seed, batch: Math.min(args.episodes, 100) });
      console.error(`${file}: success ${result.success_rate.toFixed(3)} over ${result.episodes} episodes`);
      return result.success_rate;
    };
    const bcSuccessRate = await evaluate(path.join(args.ckpts, `${task}-bc.flowtune`));
    const seedResults = [];
    for (const seed of seeds) {
      const runDir = path.join(args.runs, `${task}-ppo-s${seed}`);
      seedResults.push({ seed, ...lastRecord(runDir), successRate: await evaluate(path.join(runDir, 'checkpoints', 'final.flowtune')) });
    }
    results.push({ task, bcSuccessRate, seeds: seedResults, episodes: args.episodes });
  }
  const table = formatResultsTable(results);
  if (args.out) {
    mkdirSync(path.dirname(args.out), { recursive: true });
    writeFileSync(args.out, table);
  }
  process.stdout.write(table);
}

void runCli(main);
