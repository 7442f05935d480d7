/**
 * The `redis` executor (DESIGN.md §11, §15): the sweep command queues every unfinished run with
 * BullMQ and waits; `npm run sweep-worker` processes on any machines take them. What a worker
 * returns is untrusted: only the fixed file names land, each in the folder of the run the sweep
 * planned, and the sweep evaluates the returned checkpoint itself, as the local executor does. A
 * run lands exactly once (its result.json is written last, and a run that has one is never taken
 * again). A killed worker's run goes back to the queue; a run that fails on its own fails once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import type { SweepRun } from '../../core/sweep/sweep-plan';
import { makeFolder, writeFileDurable } from '../durable-write';
import { finalCheckpointProblem } from './final-checkpoint';
import { connectRedis, lostConnection, redisOptions, SWEEP_QUEUE, type RedisTarget } from './redis-connection';
import { CHECKPOINT_KEY_PREFIX, checkJobReturn, isBinaryFile, sweepJobId, type SweepJobData } from './redis-jobs';
import { describeRunResult, evaluateRun } from './run-result';
import { finalCheckpointOf, readRunResult, runDirOf, writeRunResult, writeSummary, type SweepFile } from './sweep-folder';

/** Tries of a run that fails with a passing error (a lost fetch, say); a run that fails on its own is not retried. */
const JOB_ATTEMPTS = 3;

/**
 * Lands a worker's reply into the planned run's folder (the run id comes from the plan, never from
 * the reply), validates the checkpoint and evaluates it here; result.json is written last.
 */
async function landRun(out: string, sweep: SweepFile, run: SweepRun, reply: unknown, evaluateQueue: { chain: Promise<void> }): Promise<void> {
  if (readRunResult(out, run.id)) return;
  const { files, worker, refused } = checkJobReturn(reply);
  for (const name of refused) console.error(`warning: refused a file from worker ${worker} for ${run.id}: ${name}`);
  const runDir = runDirOf(out, run.id);
  for (const [name, content] of files) {
    const file = path.join(runDir, name);
    makeFolder(path.dirname(file));
    writeFileDurable(file, isBinaryFile(name) ? Buffer.from(content, 'base64') : content);
  }
  const problem = finalCheckpointProblem(finalCheckpointOf(out, run.id), sweep.plan.task);
  if (problem) throw new Error(`worker ${worker} returned ${problem}`);
  // Evaluations run one at a time in this process, as the local executor's do.
  const evaluation = evaluateQueue.chain.then(async () => {
    const result = await evaluateRun(runDir, sweep.plan.task, run, sweep.evaluation);
    writeRunResult(out, result);
    const summary = await writeSummary(out, sweep);
    console.log(`done ${run.id} on ${worker}: ${describeRunResult(result)} (${summary.finishedRuns}/${summary.plannedRuns} runs finished)`);
  });
  evaluateQueue.chain = evaluation.catch(() => undefined);
  await evaluation;
}

/** Queues the unfinished runs and lands each as a worker returns it; returns the ids that failed. */
export async function runRedisSweep(out: string, sweep: SweepFile, target: RedisTarget): Promise<string[]> {
  const client = await connectRedis(target);
  let ckptKey = '';
  if (sweep.ckpt) {
    const checkpoint = readFileSync(sweep.ckpt);
    ckptKey = `${CHECKPOINT_KEY_PREFIX}${createHash('sha256').update(checkpoint).digest('hex')}`;
    await client.set(ckptKey, checkpoint, 'EX', 30 * 24 * 3600);
  }
  const sweepId = createHash('sha256').update(JSON.stringify([sweep.plan.preset, sweep.plan.task, sweep.taskHash, sweep.plan.base, ckptKey, sweep.evaluation])).digest('hex').slice(0, 12);
  const queue = new Queue<SweepJobData>(SWEEP_QUEUE, { connection: redisOptions(target) });
  const events = new QueueEvents(SWEEP_QUEUE, { connection: redisOptions(target) });
  const lost = lostConnection(target, [queue, events, client]);
  const failed: string[] = [];
  const evaluateQueue = { chain: Promise.resolve() };
  try {
    await Promise.race([events.waitUntilReady(), lost]);
    const pending = sweep.plan.runs.filter((run) => readRunResult(out, run.id) === undefined);
    console.error(`${sweep.plan.runs.length - pending.length} of ${sweep.plan.runs.length} runs already finished; ${pending.length} queued on ${target.display} (sweep ${sweepId}); start workers with npm run sweep-worker -- redis_url=${target.display}`);
    const land = async (run: SweepRun) => {
      const jobId = sweepJobId(sweepId, run.id);
      let job = await queue.getJob(jobId);
      // A run that failed before is tried again; one that finished while nobody waited is landed now.
      if (job && (await job.getState()) === 'failed') {
        await job.remove();
        job = undefined;
      }
      job ??= await queue.add(run.id, { sweepId, task: sweep.plan.task, taskHash: sweep.taskHash, ckptKey, run }, {
        jobId, attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delay: 5000 }, removeOnComplete: false, removeOnFail: false,
      });
      try {
        await landRun(out, sweep, run, await job.waitUntilFinished(events), evaluateQueue);
      } catch (error) {
        failed.push(run.id);
        console.error(`failed ${run.id}: ${(error as Error).message}`);
        // A reply that could not land is not kept, so the same command queues the run afresh.
        if ((await job.getState().catch(() => undefined)) === 'completed') await job.remove().catch(() => undefined);
      }
    };
    await Promise.race([Promise.all(pending.map(land)), lost]);
  } finally {
    await Promise.allSettled([queue.close(), events.close()]);
    client.disconnect();
  }
  return failed;
}
