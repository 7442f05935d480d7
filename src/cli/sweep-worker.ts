/**
 * `npm run sweep-worker -- redis_url=redis://host:port [stall_s=30]`: takes sweep runs from the
 * Redis queue (DESIGN.md §11), trains and evaluates each in a child process, and sends back its
 * result, metrics, config and final checkpoint. Start any number, on any machine that reaches the
 * server: by hand, over ssh, with Slurm's `srun`, or as a Kubernetes Job. A worker that dies
 * mid-run loses nothing: once its lock lapses (stall_s), another worker takes the run again.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker, type Job } from 'bullmq';
import { parseCliArgs, runCli } from './cli-args';
import { prepareRuntime } from './run-setup';
import { connectRedis, lostConnection, redisOptions, SWEEP_QUEUE } from './sweep/redis-connection';
import { isBinaryFile, RETURNED_FILES, type SweepJobData, type SweepJobReturn } from './sweep/redis-jobs';
import { evaluateRun } from './sweep/run-result';
import { lastLogLine, trainChild } from './sweep/train-child';

const SPEC = {
  redis_url: { kind: 'string', required: true, doc: 'the sweep\'s Redis server, redis://host:port' },
  stall_s: { kind: 'int', min: 1, max: 3600, default: 30, doc: 'seconds after which a run whose worker stopped answering is taken again' },
} as const;

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npm run sweep-worker --' });
  const client = await connectRedis(args.redis_url);
  await prepareRuntime();
  const work = mkdtempSync(path.join(tmpdir(), 'flowtune-sweep-worker-'));
  const name = `${hostname()}:${process.pid}`;
  const checkpointFile = async (key: string) => {
    const file = path.join(work, `${key.replace(/[^a-z0-9]/gi, '_')}.flowtune`);
    if (!existsSync(file)) {
      const bytes = await client.getBuffer(key);
      if (!bytes) throw new Error(`the sweep's checkpoint ${key} is not on the Redis server`);
      writeFileSync(file, bytes);
    }
    return file;
  };
  const processRun = async (job: Job<SweepJobData>): Promise<SweepJobReturn> => {
    const { run, task, evaluation, ckptKey } = job.data;
    console.log(`start ${run.id} (job ${job.id})`);
    const runDir = path.join(work, String(job.id));
    mkdirSync(runDir, { recursive: true });
    const code = await trainChild(runDir, await checkpointFile(ckptKey), run.overrides);
    if (code !== 0) throw new Error(`training ${run.id} exited with ${code}: ${lastLogLine(runDir)}`);
    const result = await evaluateRun(runDir, task, run, evaluation);
    const files: Record<string, string> = {};
    for (const file of RETURNED_FILES) {
      const full = path.join(runDir, file);
      if (existsSync(full)) files[file] = isBinaryFile(file) ? readFileSync(full).toString('base64') : readFileSync(full, 'utf8');
    }
    rmSync(runDir, { recursive: true, force: true });
    console.log(`done ${run.id}: success ${result.successRate.toFixed(3)}`);
    return { result, files, worker: name };
  };
  const worker = new Worker<SweepJobData, SweepJobReturn>(SWEEP_QUEUE, processRun, {
    connection: redisOptions(args.redis_url), concurrency: 1, lockDuration: args.stall_s * 1000, stalledInterval: args.stall_s * 1000, maxStalledCount: 5,
  });
  console.log(`worker ${name} takes runs from ${args.redis_url}`);
  const stop = () => void worker.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await lostConnection(args.redis_url, [worker, client]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void runCli(main);
