import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const redisServer = process.env.REDIS_SERVER ?? 'redis-server';
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-sweep-redis-'));
const started: ChildProcess[] = [];

/** Three tiny reach runs, each evaluated on 4 fresh episodes. */
const TINY = [
  'task=reach', 'seeds=0', 'configs=baseline,lr:low,lr:high', 'iterations=3', 'num_envs=2', 'env.steps_per_iteration=4', 'ppo.minibatch_size=4',
  'ppo.epochs=1', 'eval_episodes=2', 'eval.record_episodes=0', 'final_eval_episodes=4',
];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A child in its own process group, so killing it takes its training child along. */
function start(script: string, args: string[]): ChildProcess & { output: () => string } {
  const child = spawn(tsx, [path.join(here, script), ...args], { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk) => { text += chunk; });
  child.stderr!.on('data', (chunk) => { text += chunk; });
  started.push(child);
  return Object.assign(child, { output: () => text });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

const exited = (child: ChildProcess) => new Promise<number>((resolve) => {
  if (child.exitCode !== null) resolve(child.exitCode);
  else child.on('exit', (code) => resolve(code ?? 1));
});

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startRedis(): Promise<{ url: string; server: ChildProcess }> {
  const port = await freePort();
  const server = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  server.on('error', () => undefined);
  started.push(server);
  let ready = false;
  const ping = () => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.on('data', (data) => { ready = data.toString().startsWith('+PONG'); socket.destroy(); });
    socket.on('error', () => socket.destroy());
  };
  await until(() => {
    if (!ready) ping();
    return ready;
  }, 'redis-server to answer', 10_000);
  return { url: `redis://127.0.0.1:${port}`, server };
}

beforeAll(() => {
  const probe = spawnSync(redisServer, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`these tests need Debian's redis-server (${redisServer} not found): apt-get install redis-server, or set REDIS_SERVER`);
});
afterAll(() => {
  for (const child of started) killGroup(child);
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run sweep with executor=redis and sweep workers', () => {
  it('a worker killed mid-run loses no run: another takes it after the stall timeout, and every run lands once', async () => {
    const { url } = await startRedis();
    const out = path.join(dir, 'killed');
    const sweep = start('sweep.ts', [...TINY, `out=${out}`, 'executor=redis', `redis_url=${url}`]);
    const workers = [start('sweep-worker.ts', [`redis_url=${url}`, 'stall_s=2']), start('sweep-worker.ts', [`redis_url=${url}`, 'stall_s=2'])];
    await until(() => workers.some((worker) => /start (\S+)/.test(worker.output())), 'a worker to start a run');
    const [doomed, survivor] = /start (\S+)/.test(workers[0].output()) ? workers : [workers[1], workers[0]];
    const taken = /start (\S+)/.exec(doomed.output())![1];
    killGroup(doomed);
    expect(await exited(sweep), sweep.output()).toBe(0);
    // The killed worker's run was trained again by the survivor, and finished.
    expect(survivor.output()).toContain(`start ${taken}`);
    expect(doomed.output()).not.toContain(`done ${taken}`);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect(summary.runs.map((run: { id: string }) => run.id).sort()).toEqual(['baseline-s0', 'lr-high-s0', 'lr-low-s0']);
    expect(sweep.output().match(/^done /gm)).toHaveLength(3);
    // The returned files are in the sweep folder.
    expect(readFileSync(path.join(out, 'runs', taken, 'checkpoints', 'final.flowtune')).length).toBeGreaterThan(1000);
    expect(JSON.parse(readFileSync(path.join(out, 'runs', 'lr-high-s0', 'config.json'), 'utf8')).actor_lr).toBe(1e-4);
    killGroup(survivor);
  }, 180_000);

  it('a Redis that goes away gives one clear error, and the same command resumes the sweep', async () => {
    const { url, server } = await startRedis();
    const out = path.join(dir, 'lost');
    const sweep = start('sweep.ts', [...TINY, `out=${out}`, 'executor=redis', `redis_url=${url}`]);
    await until(() => sweep.output().includes('queued on'), 'the runs to be queued');
    server.kill('SIGKILL');
    expect(await exited(sweep)).toBe(1);
    expect(sweep.output()).toMatch(/error: lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ .*the same command resumes the sweep/);
    const again = await startRedis();
    const resumed = start('sweep.ts', [...TINY, `out=${out}`, 'executor=redis', `redis_url=${again.url}`]);
    const worker = start('sweep-worker.ts', [`redis_url=${again.url}`]);
    expect(await exited(resumed), resumed.output()).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')).finishedRuns).toBe(3);
    killGroup(worker);
  }, 180_000);

  it('a bad redis_url exits 2 and an unreachable server exits 1, each with one error line', async () => {
    const bad = spawnSync(tsx, [path.join(here, 'sweep.ts'), ...TINY, `out=${path.join(dir, 'bad')}`, 'executor=redis', 'redis_url=localhost:6379'], { cwd: repoRoot, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual(["error: redis_url must look like redis://host:port (e.g. redis://127.0.0.1:6379), got 'localhost:6379'"]);
    const port = await freePort();
    const unreachable = spawnSync(tsx, [path.join(here, 'sweep.ts'), ...TINY, `out=${path.join(dir, 'unreachable')}`, 'executor=redis', `redis_url=redis://127.0.0.1:${port}`], { cwd: repoRoot, encoding: 'utf8' });
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(new RegExp(`error: cannot reach Redis at redis://127\\.0\\.0\\.1:${port} `));
    const worker = spawnSync(tsx, [path.join(here, 'sweep-worker.ts'), 'redis_url=nope'], { cwd: repoRoot, encoding: 'utf8' });
    expect(worker.status).toBe(2);
  }, 60_000);
});
