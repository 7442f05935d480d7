/**
 * `npm run sweep-worker -- redis_url=redis://[user:pass@]host:port [tasks=DIR] [tls_ca=FILE] [stall_s=30] [job_timeout_s=86400]`:
 * takes sweep runs from the Redis queue (DESIGN.md §11), trains each in a child process, and sends
 * back its metrics, config, log and final checkpoint. Start any number, on any machine that
 * reaches the server: by hand, over ssh, with Slurm's `srun`, or as a Kubernetes Job.
 *
 * What arrives through the queue is untrusted (§15): a job's data is checked before anything runs
 * (a task this worker has, at the sweep's version; config keys only; the command line's bounds). No
 * code comes through the queue: a job names a task, and the worker finds it among the built-ins and
 * the task folders in its own tasks=DIR. Its run folder is named by a
 * hash this worker computes, the checkpoint is cached under the hash of its own bytes, and a job
 * gets at most job_timeout_s of wall-clock. A run whose child is killed, or whose worker dies or
 * is stopped, goes back to the queue for another worker; a run that fails on its own fails once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { parseCliArgs, runCli, UsageError } from './cli-args';
import { registerBuiltInTasks } from '../tasks';
import { isTaskPath, loadTaskPath } from './task-loading';
import { loadMujocoNode } from './mujoco-node';
import { writeFileDurable } from './durable-write';
import { connectRedis, lostConnection, parseRedisUrl, redisOptions, SWEEP_QUEUE } from './sweep/redis-connection';
import { checkJobData, checkpointKeyHash, isBinaryFile, loggable, RETURNED_FILES, type SweepJobReturn } from './sweep/redis-jobs';
import { describeExit, killedFromOutside, lastLogLine, trainChild } from './sweep/train-child';

const SPEC = {
  redis_url: { kind: 'string', required: true, doc: 'the sweep\'s Redis server, redis://[user:password@]host:port[/db] or rediss:// for TLS (password also from REDIS_PASSWORD)' },
  tasks: { kind: 'string', default: '', doc: 'folder of task folders (or task modules) this worker may run besides the built-ins; a job names its task and its hash' },
  tls_ca: { kind: 'string', doc: 'PEM file of the CA that signed a rediss:// server\'s certificate (a private CA)' },
  stall_s: { kind: 'int', min: 1, max: 3600, default: 30, doc: 'seconds after which a run whose worker stopped answering is taken again' },
  job_timeout_s: { kind: 'int', min: 10, max: 30 * 24 * 3600, default: 24 * 3600, doc: 'wall-clock limit of one run on this worker; a run past it fails' },
} as const;

/**
 * Loads every task folder (or module file) in `dir`, checking each as task= does; returns the
 * source of each task by name, for the training children.
 */
async function loadTaskFolder(dir: string): Promise<Map<string, string>> {
  registerBuiltInTasks();
  const sources = new Map<string, string>();
  if (!dir) return sources;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError('tasks', `tasks=${dir} is not a folder`);
  const mj = await loadMujocoNode();
  for (const entry of readdirSync(dir).filter((name) => !name.startsWith('.')).sort()) {
    const source = path.resolve(dir, entry);
    if (!statSync(source).isDirectory() && !isTaskPath(entry)) continue;
    const task = await loadTaskPath(source, mj);
    if (sources.has(task.name)) throw new UsageError('tasks', `tasks=${dir}: two entries define task '${task.name}' (${path.basename(sources.get(task.name)!)} and ${entry})`);
    sources.set(task.name, source);
  }
  return sources;
}

/**
 * A run lost this many times, its child killed and handed back or its whole worker gone, fails instead of
 * circling forever. One limit for both: the queue puts a stalled run first in line, so the next worker to
 * go down is often running that same run again.
 */
const MAX_HANDOVERS = 10;

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npm run sweep-worker --' });
  const target = parseRedisUrl(args.redis_url, { env: process.env, tlsCa: args.tls_ca });
  const taskSources = await loadTaskFolder(args.tasks);
  const client = await connectRedis(target);
  const work = mkdtempSync(path.join(tmpdir(), 'flowtune-sweep-worker-'));
  const name = `${hostname()}:${process.pid}`;
  let stopping = false;
  let childPid: number | undefined;

  /** The sweep's checkpoint, fetched once and kept under the hash of its bytes, which must match the key. */
  const checkpointFile = async (key: string) => {
    const hash = checkpointKeyHash(key)!;
    const file = path.join(work, `${hash}.flowtune`);
    if (existsSync(file)) return file;
    const bytes = await client.getBuffer(key);
    if (!bytes) throw new Error(`the sweep's checkpoint ${key} is not on the Redis server`);
    if (createHash('sha256').update(bytes).digest('hex') !== hash) throw new UnrecoverableError(`the checkpoint under ${key} does not match its hash; refusing it`);
    writeFileDurable(file, bytes);
    return file;
  };

  const processRun = async (job: Job, token?: string): Promise<SweepJobReturn> => {
    let checked;
    try {
      checked = checkJobData(job.data, { maxEnvWorkers: availableParallelism() });
    } catch (error) {
      throw new UnrecoverableError(`refused job ${loggable(job.id)}: ${(error as Error).message}`);
    }
    const { run, ckptKey, task } = checked.job;
    if (stopping) return handBack(job, token, run.id, 'this worker is stopping');
    console.log(`start ${run.id} (job ${loggable(job.id)})`);
    // Never a path from the queue: the folder is named by a hash of the job id.
    const runDir = path.join(work, `run-${createHash('sha256').update(String(job.id)).digest('hex').slice(0, 16)}`);
    try {
      const ckpt = ckptKey ? await checkpointFile(ckptKey) : '';
      const exit = await trainChild(runDir, ckpt, run.overrides, { timeoutMs: args.job_timeout_s * 1000, onStart: (pid) => { childPid = pid; }, taskSource: taskSources.get(task) });
      childPid = undefined;
      if (exit.timedOut) throw new UnrecoverableError(`training ${run.id} ran past job_timeout_s=${args.job_timeout_s} and was stopped`);
      if (killedFromOutside(exit) || stopping) return handBack(job, token, run.id, `its training ${describeExit(exit)}`);
      if (exit.code !== 0) throw new UnrecoverableError(`training ${run.id} ${describeExit(exit)}: ${lastLogLine(runDir)}`);
      const files: Record<string, string> = {};
      for (const file of RETURNED_FILES) {
        const full = path.join(runDir, file);
        if (existsSync(full)) files[file] = isBinaryFile(file) ? readFileSync(full).toString('base64') : readFileSync(full, 'utf8');
      }
      console.log(`returning ${run.id}`);
      return { files, worker: name };
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  };

  /** Puts the job back in the queue for any worker (never failed): a kill is not the run's fault. */
  const handBack = async (job: Job, token: string | undefined, runId: string, why: string): Promise<never> => {
    if (job.attemptsStarted > MAX_HANDOVERS) throw new UnrecoverableError(`${runId} was lost ${MAX_HANDOVERS} times (the last: ${why}); giving up`);
    console.error(`handing ${runId} back to the queue: ${why}`);
    await job.moveToWait(token);
    throw new WaitingError();
  };

  const worker = new Worker(SWEEP_QUEUE, processRun, {
    connection: redisOptions(target), concurrency: 1, lockDuration: args.stall_s * 1000, stalledInterval: args.stall_s * 1000, maxStalledCount: MAX_HANDOVERS,
  });
  worker.on('failed', (job, error) => console.error(`failed ${loggable(job?.data?.run?.id ?? job?.id)}: ${error.message}`));
  const own = taskSources.size > 0 ? `; its own tasks: ${[...taskSources.keys()].join(', ')}` : '';
  console.log(`worker ${name} takes runs from ${target.display}${own}`);
  const cleanUp = () => rmSync(work, { recursive: true, force: true });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: stopping; a run under way goes back to the queue`);
    // The child's death hands its run back; close() then waits for that.
    if (childPid !== undefined) {
      try {
        process.kill(childPid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    void worker.close().finally(() => {
      cleanUp();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await lostConnection(target, [worker, client]);
  } finally {
    cleanUp();
  }
}

void runCli(main);
