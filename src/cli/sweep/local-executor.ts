/**
 * The `local` executor (DESIGN.md §11): `parallel` child processes of `npm run train` on this
 * machine, each writing an ordinary run folder and its log; the parent evaluates each final
 * checkpoint on the sweep's fresh seeds and refreshes the summary. A run with a result is skipped;
 * a run folder without one (an interrupted run) starts over.
 */
import { existsSync } from 'node:fs';
import type { SweepRun } from '../../core/sweep/sweep-plan';
import { evaluateRun } from './run-result';
import { lastLogLine, trainChild } from './train-child';
import { finalCheckpointOf, readRunResult, runDirOf, writeRunResult, writeSummary, type SweepFile } from './sweep-folder';

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
      const result = await evaluateRun(runDirOf(out, run.id), plan.task, run, sweep.evaluation);
      writeRunResult(out, result);
      const summary = await writeSummary(out, sweep);
      console.log(`done ${run.id}: success ${result.successRate.toFixed(3)} (${summary.finishedRuns}/${summary.plannedRuns} runs finished)`);
    });
    evaluations = job.catch(() => undefined);
    return job;
  };
  const worker = async () => {
    while (next < pending.length) {
      const run = pending[next++];
      console.log(`start ${run.id}`);
      const code = existsSync(finalCheckpointOf(out, run.id)) ? 0 : await trainChild(runDirOf(out, run.id), sweep.ckpt, run.overrides);
      if (code !== 0) {
        failed.push(run.id);
        console.error(`failed ${run.id} (exit ${code}): ${lastLogLine(runDirOf(out, run.id))}`);
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
