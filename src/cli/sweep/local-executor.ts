/**
 * The `local` executor (DESIGN.md §11): `parallel` child processes of `npm run train` on this
 * machine, each writing an ordinary run folder and its log; the parent evaluates each final
 * checkpoint on the sweep's fresh seeds and refreshes the summary. A run with a result is skipped;
 * a run whose final checkpoint validates is only evaluated; any other run folder (an interrupted
 * run, a damaged checkpoint) starts over.
 */
import { existsSync } from 'node:fs';
import type { SweepRun } from '../../core/sweep/sweep-plan';
import { finalCheckpointProblem } from './final-checkpoint';
import { describeRunResult, evaluateRun } from './run-result';
import { describeExit, lastLogLine, trainChild } from './train-child';
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
      console.log(`done ${run.id}: ${describeRunResult(result)} (${summary.finishedRuns}/${summary.plannedRuns} runs finished)`);
    });
    evaluations = job.catch(() => undefined);
    return job;
  };
  /** True when the run folder already holds a final checkpoint that validates; a damaged one is said and retrained. */
  const alreadyTrained = (run: SweepRun) => {
    const file = finalCheckpointOf(out, run.id);
    if (!existsSync(file)) return false;
    const problem = finalCheckpointProblem(file, plan.task);
    if (problem) console.error(`warning: ${problem}; training ${run.id} again`);
    return problem === undefined;
  };
  const worker = async () => {
    while (next < pending.length) {
      const run = pending[next++];
      console.log(`start ${run.id}`);
      if (!alreadyTrained(run)) {
        const exit = await trainChild(runDirOf(out, run.id), sweep.ckpt, run.overrides, { taskSource: sweep.taskSource });
        if (exit.code !== 0) {
          failed.push(run.id);
          console.error(`failed ${run.id} (training ${describeExit(exit)}): ${lastLogLine(runDirOf(out, run.id))}`);
          continue;
        }
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
