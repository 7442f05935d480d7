/**
 * `npm run sweep -- preset=reinflow-ablation task=pick-cube seeds=0,1,2 out=DIR [configs=a,b]
 * [dry_run=true] [parallel=N] [executor=redis redis_url=...] [key=value...]`: every variant × seed as an ordinary training run
 * (DESIGN.md §11), then summary.md, summary.json and an overlay plot in DIR as runs finish.
 * `npm run sweep -- status out=DIR` shows progress. Running the same command again skips finished runs.
 */
import { isTaskPath, resolveTaskArgument } from './task-loading';
import { getTask } from '../core/envs/task-registry';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { applyOverrides, defaultConfig, isConfigKey, presetConfig, readDecimal, suggestKeys, validateConfig } from '../core/config';
import { dryRunLines, planSweep } from '../core/sweep/sweep-plan';
import { SWEEP_PRESET_NAMES, SWEEP_PRESETS, type SweepPresetName } from '../core/sweep/sweep-presets';
import { formatSweepSummary, summarizeSweep } from '../core/sweep/sweep-summary';
import { parseCliArgs, parseCliArgsWithOverrides, runCli, UsageError } from './cli-args';
import { loadCheckpointFile, prepareRuntime } from './run-setup';
import { checkpointStartsRun } from '../core/run/open-checkpoint';
import { runLocalSweep } from './sweep/local-executor';
import { parseRedisUrl } from './sweep/redis-connection';
import { runRedisSweep } from './sweep/redis-executor';
import { finishedResults, readSweepFile, writeSweepFile, writeSummary, type SweepFile } from './sweep/sweep-folder';

const SPEC = {
  preset: { kind: 'enum', values: SWEEP_PRESET_NAMES, default: 'reinflow-ablation', doc: 'sweep preset: its variants' },
  task: { kind: 'string', required: true, doc: 'task every run trains on: a built-in name, or ./path/ to a task of your own' },
  seeds: { kind: 'string', default: '0', doc: 'comma-separated training seeds' },
  out: { kind: 'string', required: true, doc: 'sweep folder (runs/<variant>-s<seed>, sweep.json, summary.md, summary.json, learning-curves.png)' },
  configs: { kind: 'string', default: '', doc: 'comma-separated variants to run (default: all of the preset)' },
  ckpt: { kind: 'string', default: '', doc: "pretrained checkpoint every run starts from (default public/checkpoints/<task>-bc.flowtune; a task without one starts each run from a fresh policy)" },
  dry_run: { kind: 'bool', default: false, doc: 'print one line per run (variant, seed, overrides) and run nothing' },
  parallel: { kind: 'int', min: 0, max: 256, default: 0, doc: 'runs at once (0 = one per two cores, at least 1: each run steps its envs on every core)' },
  executor: { kind: 'enum', values: ['local', 'redis'], default: 'local', doc: 'where runs train: local child processes, or sweep workers taking them from a Redis queue' },
  redis_url: { kind: 'string', default: '', doc: 'Redis server of executor=redis, redis://[user:password@]host:port[/db] or rediss:// for TLS (password also from REDIS_PASSWORD)' },
  tls_ca: { kind: 'string', doc: 'PEM file of the CA that signed a rediss:// server\'s certificate (a private CA)' },
  final_eval_episodes: { kind: 'int', min: 1, max: 100_000, default: 100, doc: 'episodes of the final evaluation of each run, on the same fresh seeds for every run' },
  final_eval_seed: { kind: 'int', min: 0, max: 2 ** 31 - 1, default: 2_000_000, doc: 'first reset seed of the final evaluation (apart from training and in-run evaluation seeds)' },
} as const;

const STATUS_SPEC = { out: { kind: 'string', required: true, doc: 'sweep folder' } } as const;

function status(argv: readonly string[]): void {
  const { out } = parseCliArgs(argv, STATUS_SPEC, { program: 'npm run sweep -- status' });
  const sweep = readSweepFile(out);
  if (!sweep) throw new UsageError('out', `${out} holds no sweep (no sweep.json)`);
  const results = finishedResults(out, sweep.plan);
  const done = new Set(results.map((result) => result.id));
  const waiting = sweep.plan.runs.filter((run) => !done.has(run.id)).map((run) => run.id);
  process.stdout.write(formatSweepSummary(summarizeSweep(sweep.plan, results, sweep.evaluation)));
  console.log(waiting.length > 0 ? `\nnot finished: ${waiting.join(', ')}` : '\nevery run finished');
}

async function main(): Promise<void> {
  const given = process.argv.slice(2).map((arg) => /^(?:--)?task=(.+)$/.exec(arg)?.[1]).filter((value) => value !== undefined).at(-1);
  // The children load a user's task from its path; the plan names it.
  const taskSource = given !== undefined && isTaskPath(given) ? path.resolve(given) : undefined;
  const argv = (await resolveTaskArgument(process.argv.slice(2))).filter((arg) => arg !== '--');
  if (argv[0] === 'status') return status(argv.slice(1));
  const { args, overrides } = parseCliArgsWithOverrides(argv, SPEC, { isConfigKey, suggest: suggestKeys, program: 'npm run sweep --' });
  const base = overrides.filter((override) => !override.startsWith('task='));
  if (base.some((override) => override.startsWith('seed='))) throw new UsageError('seed', 'a sweep takes its training seeds as seeds=0,1,2, not seed=');
  const seeds = args.seeds.split(',').map((text) => readDecimal(text.trim()).value);
  const plan = planSweep({
    preset: args.preset as SweepPresetName, task: args.task, seeds,
    configs: args.configs ? args.configs.split(',').map((name) => name.trim()) : [], base,
  });
  // Every run's config is checked before anything starts (a bad value exits 2 here, not in a child).
  for (const run of plan.runs) validateConfig(applyOverrides(defaultConfig(), run.overrides));
  for (const note of plan.notes) console.error(`warning: ${note}`);
  if (args.dry_run) {
    for (const line of dryRunLines(plan)) console.log(line);
    return;
  }
  const redisTarget = args.executor === 'redis' ? parseRedisUrl(args.redis_url, { env: process.env, tlsCa: args.tls_ca }) : undefined;
  if (redisTarget) {
    if (args.parallel > 0) console.error(`warning: parallel=${args.parallel} does nothing with executor=redis; each sweep-worker takes one run at a time, so start as many workers as runs should train at once`);
  }
  else if (args.redis_url || args.tls_ca) throw new UsageError(args.redis_url ? 'redis_url' : 'tls_ca', `${args.redis_url ? 'redis_url' : 'tls_ca'} does nothing with executor=local; add executor=redis to run on sweep workers`);
  const shipped = path.join('public', 'checkpoints', `${args.task}-bc.flowtune`);
  // The task's shipped checkpoint starts the sweep's runs when it holds the family the sweep trains; else they start fresh.
  const baseline = presetConfig(SWEEP_PRESETS[args.preset as SweepPresetName].baseline);
  const fromScratch = existsSync(shipped) && !checkpointStartsRun(baseline, loadCheckpointFile(shipped).kind);
  const ckpt = args.ckpt || (!fromScratch && existsSync(shipped) ? shipped : '');
  if (ckpt && !existsSync(ckpt)) throw new UsageError('ckpt', `checkpoint ${ckpt} does not exist`);
  if (!ckpt && !fromScratch) console.error(`warning: no ckpt= and no ${shipped}: every run starts from a fresh policy`);
  const sweep: SweepFile = {
    plan, ckpt, ...(taskSource ? { taskSource } : {}), taskHash: getTask(args.task).hash,
    evaluation: { episodes: args.final_eval_episodes, seed: args.final_eval_seed },
  };
  writeSweepFile(args.out, sweep);
  await prepareRuntime();
  const parallel = args.parallel > 0 ? args.parallel : Math.max(1, Math.floor(availableParallelism() / 2));
  const failed = redisTarget ? await runRedisSweep(args.out, sweep, redisTarget) : await runLocalSweep(args.out, sweep, parallel);
  const summary = await writeSummary(args.out, sweep);
  console.log(JSON.stringify({ out: args.out, finished: summary.finishedRuns, planned: summary.plannedRuns, failed }));
  if (failed.length > 0) throw new Error(`${failed.length} run${failed.length > 1 ? 's' : ''} failed (${failed.join(', ')}); their logs are runs/<id>/train.log; run the same command again to retry them`);
}

void runCli(main);
