import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, killGroup, killStartedClis, repoRoot, startCli, type CliProcess } from './sweep/fixtures/cli-process';
import { freePort, killRedisServer, REDIS_SERVER, startedRedisPids, startRedisServer, stopRedisServers, until } from './sweep/fixtures/redis-server';

const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-sweep-redis-'));

/** Tiny reach runs, each evaluated on 4 fresh episodes. */
const TINY = [
  'task=reach', 'iterations=3', 'num_envs=2', 'env.steps_per_iteration=4', 'ppo.minibatch_size=4',
  'ppo.epochs=1', 'eval_episodes=2', 'eval.record_episodes=0', 'final_eval_episodes=4',
];

beforeAll(() => {
  const probe = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`these tests need Debian's redis-server (${REDIS_SERVER} not found): apt-get install redis-server, or set REDIS_SERVER`);
});
afterAll(async () => {
  killStartedClis();
  await stopRedisServers();
  rmSync(dir, { recursive: true, force: true });
});

let workerCount = 0;
/** A sweep worker whose temporary folder lies under its own TMPDIR, so a test can find its training child's files. */
function startWorker(url: string, extra: string[] = []): CliProcess & { tmp: string } {
  const tmp = path.join(dir, `worker-${workerCount++}`);
  mkdirSync(tmp, { recursive: true });
  return Object.assign(startCli('sweep-worker.ts', [`redis_url=${url}`, 'stall_s=2', ...extra], { TMPDIR: tmp }), { tmp });
}

/** The training log of the run a worker is training now, if any. */
function trainingLog(worker: { tmp: string }): string {
  for (const work of readdirSync(worker.tmp)) {
    const workDir = path.join(worker.tmp, work);
    for (const run of existsSync(workDir) ? readdirSync(workDir).filter((name) => name.startsWith('run-')) : []) {
      const log = path.join(workDir, run, 'train.log');
      if (existsSync(log)) return readFileSync(log, 'utf8');
    }
  }
  return '';
}

/** Pid of the training child a worker started (its command line holds out= under the worker's TMPDIR). */
function trainingChildPid(worker: { tmp: string }): number | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (command.includes('train.ts') && command.includes(`out=${worker.tmp}`)) return Number(pid);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

const startCount = (worker: CliProcess) => worker.output().match(/^start \S+/gm)?.length ?? 0;

describe('npm run sweep with executor=redis and sweep workers', () => {
  it('loses no run and lands each once when workers are killed at any point of a run, ten times over', async () => {
    const { url } = await startRedisServer({ cwd: dir });
    const out = path.join(dir, 'killed');
    const seeds = Array.from({ length: 10 }, (_, seed) => seed);
    const sweep = startCli('sweep.ts', [...TINY, 'configs=baseline', `seeds=${seeds.join(',')}`, `out=${out}`, 'executor=redis', `redis_url=${url}`]);
    // One worker at a time while killing: a second one would finish runs between trials and could
    // leave the last trials with nothing to take. A second joins once the kills are done.
    let worker = startWorker(url);
    const workers = [worker];
    // Each trial kills at one of these points: the worker's process group (as a node loss or scancel
    // does) right as it takes a run, mid-iteration, or as it returns the files; or the training child alone.
    const points = ['taking', 'mid-iteration', 'returning', 'child only'] as const;
    const handedBack: string[] = [];
    let considered = 0;
    const returned = (runId: string) => worker.output().includes(`returning ${runId}`);
    for (let trial = 0; trial < 10;) {
      const point = points[trial % points.length];
      await until(() => startCount(worker) > considered || sweep.exitCode !== null, `a worker to take a run (trial ${trial})`, 180_000);
      if (sweep.exitCode !== null) throw new Error(`the sweep ended before trial ${trial}: ${sweep.output()}`);
      // The newest start: a worker trains one run at a time, so any earlier one is over.
      considered = startCount(worker);
      const runId = [...worker.output().matchAll(/^start (\S+)/gm)].at(-1)![1];
      if (point === 'mid-iteration' || point === 'child only') {
        await until(() => /^iter 1\//m.test(trainingLog(worker)) || returned(runId), `${runId} to finish an iteration`, 120_000);
        // A run that finished before the kill could land is simply done; the trial waits for the next run.
        if (returned(runId)) continue;
      }
      if (point === 'returning') await until(() => returned(runId), `${runId} to be returned`, 120_000);
      if (point === 'child only') {
        const child = trainingChildPid(worker);
        if (child === undefined) continue;
        process.kill(child, 'SIGKILL');
        await until(() => worker.output().includes(`handing ${runId} back to the queue`), `${runId} to be handed back`, 30_000);
        handedBack.push(runId);
      } else {
        killGroup(worker);
        await exited(worker);
        worker = startWorker(url);
        workers.push(worker);
        considered = 0;
      }
      trial++;
    }
    workers.push(startWorker(url));
    expect(await exited(sweep), sweep.output()).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
    const ids = seeds.map((seed) => `baseline-s${seed}`);
    expect(summary.runs.map((run: { id: string }) => run.id).sort()).toEqual([...ids].sort());
    // Each run landed exactly once, and none failed.
    for (const id of ids) expect(sweep.output().match(new RegExp(`^done ${id} `, 'gm')), id).toHaveLength(1);
    expect(sweep.output()).not.toMatch(/^failed /m);
    expect(handedBack.length).toBeGreaterThan(1);
    for (const id of ids) expect(readFileSync(path.join(out, 'runs', id, 'checkpoints', 'final.flowtune')).length).toBeGreaterThan(1000);
    for (const worker of workers) killGroup(worker);
  }, 600_000);

  it('a Redis that goes away gives one clear error, and the same command resumes the sweep', async () => {
    const first = await startRedisServer({ cwd: dir });
    const out = path.join(dir, 'lost');
    const args = [...TINY, 'configs=baseline,lr:low,lr:high', 'seeds=0', `out=${out}`, 'executor=redis'];
    const sweep = startCli('sweep.ts', [...args, `redis_url=${first.url}`]);
    await until(() => sweep.output().includes('queued on'), 'the runs to be queued');
    await killRedisServer(first);
    expect(await exited(sweep)).toBe(1);
    expect(sweep.output()).toMatch(/error: lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ .*the same command resumes the sweep/);
    const again = await startRedisServer({ cwd: dir });
    const resumed = startCli('sweep.ts', [...args, `redis_url=${again.url}`]);
    const worker = startWorker(again.url);
    expect(await exited(resumed), resumed.output()).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')).finishedRuns).toBe(3);
    killGroup(worker);
  }, 180_000);

  it('a bad redis_url exits 2 and an unreachable server exits 1, each with one error line', async () => {
    const run = (script: string, args: string[]) => spawnSync(path.join(repoRoot, 'node_modules/.bin/tsx'), [path.join(repoRoot, 'src/cli', script), ...args], { cwd: repoRoot, encoding: 'utf8' });
    const bad = run('sweep.ts', [...TINY, 'configs=baseline', `out=${path.join(dir, 'bad')}`, 'executor=redis', 'redis_url=localhost:6379']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual(["error: redis_url is malformed; it must look like redis://[user:password@]host[:port][/db] or rediss://… for TLS (e.g. redis://127.0.0.1:6379), got 'localhost:6379'"]);
    const port = await freePort();
    const unreachable = run('sweep.ts', [...TINY, `out=${path.join(dir, 'unreachable')}`, 'executor=redis', `redis_url=redis://127.0.0.1:${port}`]);
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(new RegExp(`error: cannot reach Redis at redis://127\\.0\\.0\\.1:${port} `));
    expect(run('sweep-worker.ts', ['redis_url=nope']).status).toBe(2);
  }, 60_000);

  it('stops every redis-server it started', async () => {
    const pids = startedRedisPids();
    expect(pids.length).toBeGreaterThan(0);
    await stopRedisServers();
    for (const pid of pids) expect(existsSync(`/proc/${pid}`), `redis-server ${pid} still runs`).toBe(false);
  });
});
