/**
 * The sweep queue's trust boundary (DESIGN.md §15), against Debian's redis-server: job ids never
 * become paths, a worker's reply lands only under the fixed names, job configs are checked and
 * time-limited, and the connection takes a password and TLS without ever printing the password.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, killGroup, killStartedClis, repoRoot, startCli } from './sweep/fixtures/cli-process';
import { makeTlsFiles, REDIS_SERVER, startedRedisPids, startRedisServer, stopRedisServers, until } from './sweep/fixtures/redis-server';
import { RETURNED_FILES } from './sweep/redis-jobs';
import { SWEEP_QUEUE } from './sweep/redis-connection';
import { getTask } from '../core/envs/task-registry';

const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-sweep-trust-'));
const PASSWORD = 'k7-open-sesame';
const CKPT = path.join(repoRoot, 'public/checkpoints/reach-bc.flowtune');

/** One tiny reach run, evaluated on 4 fresh episodes. */
const TINY = [
  'task=reach', 'configs=baseline', 'seeds=0', 'iterations=2', 'num_envs=2', 'env.steps_per_iteration=4', 'ppo.minibatch_size=4',
  'ppo.epochs=1', 'eval_episodes=2', 'eval.record_episodes=0', 'final_eval_episodes=4',
];
const RUN_OVERRIDES = ['task=reach', 'seed=0', 'iterations=2', 'num_envs=2', 'env.steps_per_iteration=4', 'ppo.minibatch_size=4', 'ppo.epochs=1', 'eval_episodes=2', 'eval.record_episodes=0'];

beforeAll(() => {
  const probe = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`these tests need Debian's redis-server (${REDIS_SERVER} not found): apt-get install redis-server, or set REDIS_SERVER`);
});
afterAll(async () => {
  killStartedClis();
  await stopRedisServers();
  rmSync(dir, { recursive: true, force: true });
});

const connection = (port: number) => ({ host: '127.0.0.1', port, maxRetriesPerRequest: null });

/** The reach checkpoint under its content key, as a sweep stores it. */
async function storeCheckpoint(port: number): Promise<string> {
  const bytes = readFileSync(CKPT);
  const key = `flowtune:checkpoint:${createHash('sha256').update(bytes).digest('hex')}`;
  const client = new Redis({ host: '127.0.0.1', port });
  await client.set(key, bytes);
  client.disconnect();
  return key;
}

describe('the sweep queue is not trusted', () => {
  it('a job id never becomes a path: jobs named ../victim and .. delete nothing outside the worker\'s folder', async () => {
    const { port, url } = await startRedisServer({ cwd: dir });
    const tmp = path.join(dir, 'job-ids', 'tmp');
    const victim = path.join(tmp, 'victim');
    mkdirSync(victim, { recursive: true });
    writeFileSync(path.join(victim, 'keep.txt'), 'mine');
    const queue = new Queue(SWEEP_QUEUE, { connection: connection(port) });
    const events = new QueueEvents(SWEEP_QUEUE, { connection: connection(port) });
    const ckptKey = await storeCheckpoint(port);
    const data = (id: string, overrides = RUN_OVERRIDES) => ({ sweepId: '0123456789ab', task: 'reach', taskHash: getTask('reach').hash, ckptKey, run: { id, variant: 'baseline', seed: 0, overrides } });
    const worker = startCli('sweep-worker.ts', [`redis_url=${url}`], { TMPDIR: tmp });
    try {
      await events.waitUntilReady();
      const jobs = [
        await queue.add('a', data('baseline-s0'), { jobId: '../victim' }),
        await queue.add('b', data('baseline-s1'), { jobId: '..' }),
      ];
      for (const job of jobs) expect(await job.waitUntilFinished(events)).toMatchObject({ worker: expect.any(String) });
      expect(readFileSync(path.join(victim, 'keep.txt'), 'utf8')).toBe('mine');
      // A job whose overrides reach outside the config (out=) fails once, refused before anything runs, and is logged.
      const bad = await queue.add('c', data('baseline-s2', [...RUN_OVERRIDES, 'out=/etc']), { jobId: 'bad-1', attempts: 3 });
      await expect(bad.waitUntilFinished(events)).rejects.toThrow(/^refused job bad-1: the run's config is refused: unknown config key 'out'/);
      expect((await queue.getJob('bad-1'))!.attemptsMade).toBe(1);
      await until(() => worker.output().includes('failed baseline-s2: refused job bad-1'), 'the worker to log the refusal', 10_000);
    } finally {
      killGroup(worker);
      await queue.close();
      await events.close();
    }
  }, 180_000);

  it('a worker\'s reply lands only under the fixed file names, in the planned run\'s folder, and is evaluated by the sweep', async () => {
    const { port, url } = await startRedisServer({ cwd: dir });
    // A real run's files to send back: train one tiny run here.
    const source = path.join(dir, 'reply-source');
    const trained = spawnSync(path.join(repoRoot, 'node_modules/.bin/tsx'), [path.join(repoRoot, 'src/cli/train.ts'), `ckpt=${CKPT}`, `out=${source}`, ...RUN_OVERRIDES], { cwd: repoRoot, encoding: 'utf8' });
    expect(trained.status, trained.stderr).toBe(0);
    const files: Record<string, string> = {};
    for (const name of RETURNED_FILES) {
      const file = path.join(source, name);
      if (existsSync(file)) files[name] = name.endsWith('.flowtune') ? readFileSync(file).toString('base64') : readFileSync(file, 'utf8');
    }
    const out = path.join(dir, 'reply', 'sweep');
    // A hostile worker: files outside the run folder, and a checkpoint name that climbs out of it.
    const hostile = new Worker(SWEEP_QUEUE, async () => ({
      worker: 'evil', files: { ...files, '../../../x.txt': 'pwned', 'checkpoints/../../../../y.flowtune': files['checkpoints/final.flowtune'], 'result.json': '{"successRate":1}' },
    }), { connection: connection(port) });
    try {
      const sweep = startCli('sweep.ts', [...TINY, `out=${out}`, 'executor=redis', `redis_url=${url}`]);
      expect(await exited(sweep), sweep.output()).toBe(0);
      expect(existsSync(path.join(dir, 'reply', 'x.txt'))).toBe(false);
      expect(existsSync(path.join(dir, 'x.txt'))).toBe(false);
      expect(existsSync(path.join(dir, 'y.flowtune'))).toBe(false);
      expect(sweep.output()).toContain('warning: refused a file from worker evil for baseline-s0: ../../../x.txt (not one of metrics.jsonl, ');
      expect(sweep.output()).toContain('warning: refused a file from worker evil for baseline-s0: result.json (not one of');
      // The sweep's own evaluation, on 4 episodes, not the 1.0 the worker claimed.
      const result = JSON.parse(readFileSync(path.join(out, 'runs', 'baseline-s0', 'result.json'), 'utf8'));
      expect(result.id).toBe('baseline-s0');
      expect([0, 0.25, 0.5, 0.75, 1]).toContain(result.successRate);
      expect(readFileSync(path.join(out, 'runs', 'baseline-s0', 'config.json'), 'utf8')).toBe(files['config.json']);
    } finally {
      await hostile.close();
    }
  }, 180_000);

  it('a run past job_timeout_s is stopped and fails once, with one sentence', async () => {
    const { url } = await startRedisServer({ cwd: dir });
    const workerTmp = path.join(dir, 'timeout-tmp');
    mkdirSync(workerTmp, { recursive: true });
    const worker = startCli('sweep-worker.ts', [`redis_url=${url}`, 'job_timeout_s=10'], { TMPDIR: workerTmp });
    try {
      const sweep = startCli('sweep.ts', [...TINY, 'iterations=100000', `out=${path.join(dir, 'timeout')}`, 'executor=redis', `redis_url=${url}`]);
      expect(await exited(sweep, 100_000, [worker])).toBe(1);
      expect(sweep.output()).toContain('failed baseline-s0: training baseline-s0 ran past job_timeout_s=10 and was stopped');
      await until(() => worker.output().includes('failed baseline-s0'), 'the worker to log the failure', 10_000);
      // The worker removed the stopped run's folder from its own.
      const workerFolders = readdirSync(workerTmp).filter((name) => name.startsWith('flowtune-sweep-worker-'));
      expect(workerFolders).toHaveLength(1);
      expect(readdirSync(path.join(workerTmp, workerFolders[0]!)).filter((name) => name.startsWith('run-'))).toEqual([]);
    } finally {
      killGroup(worker);
    }
  }, 120_000);
});

describe('Redis with a password and TLS', () => {
  it('a sweep and a worker log in over TLS with a private CA, the password from REDIS_PASSWORD or the URL, and never print it', async () => {
    const tls = makeTlsFiles(path.join(dir, 'tls'));
    const { url } = await startRedisServer({ cwd: dir, password: PASSWORD, tls });
    expect(url).toMatch(/^rediss:\/\//);
    const out = path.join(dir, 'tls-sweep');
    const worker = startCli('sweep-worker.ts', [`redis_url=${url.replace('rediss://', `rediss://:${PASSWORD}@`)}`, `tls_ca=${tls.ca}`], { TMPDIR: dir });
    try {
      const sweep = startCli('sweep.ts', [...TINY, `out=${out}`, 'executor=redis', `redis_url=${url}`, `tls_ca=${tls.ca}`], { REDIS_PASSWORD: PASSWORD });
      expect(await exited(sweep), sweep.output()).toBe(0);
      expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')).finishedRuns).toBe(1);
      expect(worker.output()).toContain(`takes runs from ${url.replace('rediss://', 'rediss://:***@')}`);
      for (const text of [sweep.output(), worker.output()]) expect(text).not.toContain(PASSWORD);
    } finally {
      killGroup(worker);
    }
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(path.join(repoRoot, 'node_modules/.bin/tsx'), [path.join(repoRoot, 'src/cli/sweep.ts'), ...TINY, `out=${path.join(dir, 'refused')}`, 'executor=redis', ...args], {
      cwd: repoRoot, encoding: 'utf8', env: { ...process.env, REDIS_PASSWORD: '', ...env },
    });
    const wrong = run([`redis_url=${url.replace('rediss://', 'rediss://:not-it@')}`, `tls_ca=${tls.ca}`]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim()).toMatch(/^error: cannot reach Redis at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(the server refused the login \(.*\); give the password in redis_url or REDIS_PASSWORD\)/);
    expect(wrong.stderr).not.toContain('not-it');
    const none = run([`redis_url=${url}`, `tls_ca=${tls.ca}`]);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('the server refused the login');
    // Without the private CA the server's certificate is not trusted.
    const untrusted = run([`redis_url=${url}`], { REDIS_PASSWORD: PASSWORD });
    expect(untrusted.status).toBe(1);
    expect(untrusted.stderr).toMatch(/TLS failed .*tls_ca=FILE for a private CA/);
  }, 180_000);

  it('a sweep on a user\'s task sends no code: a worker runs it from its own tasks=DIR, and refuses it when it lacks the task or holds another version', async () => {
    const { url } = await startRedisServer({ cwd: dir });
    const example = path.join(repoRoot, 'examples/tasks/slide-to-target');
    const own = path.join(dir, 'own-tasks');
    cpSync(example, path.join(own, 'slide-to-target'), { recursive: true });
    const other = path.join(dir, 'other-tasks');
    cpSync(example, path.join(other, 'slide-to-target'), { recursive: true });
    writeFileSync(path.join(other, 'slide-to-target', 'scene.xml'), readFileSync(path.join(example, 'scene.xml'), 'utf8').replace('kp="40"', 'kp="45"'));
    const out = path.join(dir, 'user-task');
    const args = [...TINY.map((arg) => (arg === 'task=reach' ? `task=${example}` : arg)), `out=${out}`, 'executor=redis', `redis_url=${url}`];
    // A worker without the task, then one with another version: each refuses the run once, naming why.
    for (const [tasks, refusal] of [
      [undefined, "this worker has no task 'slide-to-target'; start it with tasks=DIR"],
      [other, "task 'slide-to-target' on this worker (hash "],
    ] as const) {
      const worker = startCli('sweep-worker.ts', [`redis_url=${url}`, ...(tasks ? [`tasks=${tasks}`] : [])]);
      const sweep = startCli('sweep.ts', args);
      try {
        expect(await exited(sweep)).toBe(1);
        expect(sweep.output()).toContain(`failed baseline-s0: refused job`);
        expect(sweep.output()).toContain(refusal);
      } finally {
        killGroup(worker);
      }
    }
    // The same command again, with a worker that has the sweep's copy: the failed run is queued afresh.
    const worker = startCli('sweep-worker.ts', [`redis_url=${url}`, `tasks=${own}`]);
    try {
      const sweep = startCli('sweep.ts', args);
      expect(await exited(sweep), sweep.output()).toBe(0);
      expect(worker.output()).toContain('its own tasks: slide-to-target');
      // No shipped checkpoint for a user's task: the run started from a fresh policy.
      expect(readFileSync(path.join(out, 'runs', 'baseline-s0', 'train.log'), 'utf8')).toContain('starting from a fresh mlp policy (no ckpt=)');
      expect(JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8')).taskSource).toBe(example);
    } finally {
      killGroup(worker);
    }
  }, 240_000);

  it('stops every redis-server it started', async () => {
    const pids = startedRedisPids();
    expect(pids.length).toBeGreaterThan(0);
    await stopRedisServers();
    for (const pid of pids) expect(existsSync(`/proc/${pid}`), `redis-server ${pid} still runs`).toBe(false);
  });
});
