/**
 * The `local` executor (DESIGN.md §11): `parallel` child processes of `npm run train` on this
 * machine, each writing an ordinary run folder and its log; the parent evaluates each final
 * checkpoint on the sweep's fresh seeds and refreshes the summary. A run with a result is skipped;
 * a run folder without one (an interrupted run) starts over.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyOverrides, defaultConfig } from '../../core/config';
import { parseMetricsJsonl } from '../../core/metrics';
import type { SweepRun } from '../../core/sweep/sweep-plan';
import { evaluateCheckpoint } from '../evaluate-checkpoint';
import { finalCheckpointOf, readRunResult, runDirOf, writeRunResult, writeSummary, type SweepFile } from './sweep-folder';

const TRAIN_SCRIPT = fileURLToPath(new URL('../train.ts', import.meta.url));

/** Runs `npm run train` for one run in a child process; resolves with its exit code. */
function trainChild(out: string, ckpt: string, run: SweepRun): Promise<number> {
  const runDir = runDirOf(out, run.id);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const log = openSync(path.join(runDir, 'train.log'), 'w');
  // The same Node with the same loader flags (tsx) that runs this command runs the child.
  const child = spawn(process.execPath, [...process.execArgv, TRAIN_SCRIPT, `ckpt=${ckpt}`, `out=${runDir}`, ...run.overrides], { stdio: ['ignore', log, log] });
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      closeSync(log);
      resolve(code ?? (signal ? 128 : 1));
    });
    child.on('error', () => {
      closeSync(log);
      resolve(1);
    });
  });
}

function lastLogLine(out: string, id: string): string {
  const file = path.join(runDirOf(out, id), 'train.log');
  if (!existsSync(file)) return '(no log)';
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return lines.at(-1) ?? '(empty log)';
}

/** Runs every unfinished run of the sweep, `parallel` at a time; returns the ids that failed. */
export async function runLocalSweep(out: string, sweep: SweepFile, parallel: number): Promise<string[]> {
  const { plan } = sweep;
  const pending = plan.runs.filter((run) => readRunResult(out, run.id) === undefined);
  console.error(`${plan.runs.length - pending.length} of ${plan.runs.length} runs already finished; ${pending.length} to run, ${parallel} at a time`);
  const failed: string[] = [];
  let evaluations = Promise.resolve();
  let next = 0;
  // Evaluations run one at a time in this process, while children go on training.
  const evaluate = (run: SweepRun) => {
    const job = evaluations.then(async () => {
      const config = applyOverrides(defaultConfig(), [`task=${plan.task}`]);
      const result = await evaluateCheckpoint(finalCheckpointOf(out, run.id), config, [], { ...sweep.evaluation, batch: Math.min(sweep.evaluation.episodes, 100) });
      const { records } = parseMetricsJsonl(readFileSync(path.join(runDirOf(out, run.id), 'metrics.jsonl'), 'utf8'));
      const last = records.at(-1) ?? {};
      writeRunResult(out, {
        id: run.id, variant: run.variant, seed: run.seed, successRate: result.success_rate, meanReturn: result.mean_return,
        envSteps: Number(last['progress/env_steps'] ?? 0), wallSeconds: Number(last['progress/wall_s'] ?? 0),
      });
      const summary = await writeSummary(out, sweep);
      console.log(`done ${run.id}: success ${result.success_rate.toFixed(3)} (${summary.finishedRuns}/${summary.plannedRuns} runs finished)`);
    });
    evaluations = job.catch(() => undefined);
    return job;
  };
  const worker = async () => {
    while (next < pending.length) {
      const run = pending[next++];
      console.log(`start ${run.id}`);
      const code = existsSync(finalCheckpointOf(out, run.id)) ? 0 : await trainChild(out, sweep.ckpt, run);
      if (code !== 0) {
        failed.push(run.id);
        console.error(`failed ${run.id} (exit ${code}): ${lastLogLine(out, run.id)}`);
        continue;
      }
      await evaluate(run).catch((error: unknown) => {
        failed.push(run.id);
        console.error(`failed ${run.id}: its evaluation failed: ${(error as Error).message}`);
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, pending.length)) }, worker));
  await evaluations;
  return failed;
}
