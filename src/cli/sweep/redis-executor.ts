/**
 * The `redis` executor (DESIGN.md §11): the sweep command queues every unfinished run with BullMQ
 * and waits; `npm run sweep-worker` processes on any machines take them. Each returned run lands
 * in the sweep folder exactly once (its result.json is written last, and a run that has one is
 * never taken again). A killed worker's run goes back to the queue when its lock lapses.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import type { SweepRun } from '../../core/sweep/sweep-plan';
import { connectRedis, lostConnection, redisOptions, SWEEP_QUEUE } from './redis-connection';
import { isBinaryFile, sweepJobId, type SweepJobData, type SweepJobReturn } from './redis-jobs';
import { readRunResult, runDirOf, writeRunResult, writeSummary, type SweepFile } from './sweep-folder';

/** Writes a returned run into the sweep folder, result.json last; a run that already has one is left as it is. */
async function landRun(out: string, sweep: SweepFile, returned: SweepJobReturn): Promise<boolean> {
  const { result } = returned;
  if (readRunResult(out, result.id)) return false;
  const runDir = runDirOf(out, result.id);
  for (const [name, content] of Object.entries(returned.files)) {
    mkdirSync(path.dirname(path.join(runDir, name)), { recursive: true });
    writeFileSync(path.join(runDir, name), isBinaryFile(name) ? Buffer.from(content, 'base64') : content);
  }
  writeRunResult(out, result);
  const summary = await writeSummary(out, sweep);
  console.log(`done ${result.id} on ${returned.worker}: success ${result.successRate.toFixed(3)} (${summary.finishedRuns}/${summary.plannedRuns} runs finished)`);
  return true;
}

/** Queues the unfinished runs and lands each as a worker returns it; returns the ids that failed. */
export async function runRedisSweep(out: string, sweep: SweepFile, url: string): Promise<string[]> {
  const client = await connectRedis(url);
  const checkpoint = readFileSync(sweep.ckpt);
  const ckptKey = `flowtune:checkpoint:${createHash('sha256').update(checkpoint).digest('hex')}`;
  await client.set(ckptKey, checkpoint, 'EX', 30 * 24 * 3600);
  const sweepId = createHash('sha256').update(JSON.stringify([sweep.plan.preset, sweep.plan.task, sweep.plan.base, ckptKey, sweep.evaluation])).digest('hex').slice(0, 12);
  const queue = new Queue<SweepJobData, SweepJobReturn>(SWEEP_QUEUE, { connection: redisOptions(url) });
  const events = new QueueEvents(SWEEP_QUEUE, { connection: redisOptions(url) });
  const lost = lostConnection(url, [queue, events, client]);
  const failed: string[] = [];
  try {
    await Promise.race([events.waitUntilReady(), lost]);
    const pending = sweep.plan.runs.filter((run) => readRunResult(out, run.id) === undefined);
    console.error(`${sweep.plan.runs.length - pending.length} of ${sweep.plan.runs.length} runs already finished; ${pending.length} queued on ${url} (sweep ${sweepId}); start workers with npm run sweep-worker -- redis_url=${url}`);
    const land = async (run: SweepRun) => {
      const jobId = sweepJobId(sweepId, run.id);
      let job = await queue.getJob(jobId);
      // A run that failed before is tried again; one that finished while nobody waited is landed now.
      if (job && (await job.getState()) === 'failed') {
        await job.remove();
        job = undefined;
      }
      job ??= await queue.add(run.id, { sweepId, task: sweep.plan.task, ckptKey, run, evaluation: sweep.evaluation }, { jobId, attempts: 1, removeOnComplete: false, removeOnFail: false });
      try {
        await landRun(out, sweep, await job.waitUntilFinished(events));
      } catch (error) {
        failed.push(run.id);
        console.error(`failed ${run.id}: ${(error as Error).message}`);
      }
    };
    await Promise.race([Promise.all(pending.map(land)), lost]);
  } finally {
    await Promise.allSettled([queue.close(), events.close()]);
    client.disconnect();
  }
  return failed;
}
