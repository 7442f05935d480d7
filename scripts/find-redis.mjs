// Finds Debian's redis-server for the sweep tests (REDIS_SERVER, then the PATH); as root on
// Debian it installs the package with apt-get, otherwise it says what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDebian } from './find-chromium.mjs';

export const REDIS_INSTALL_HINT = 'Debian/Ubuntu: sudo apt-get install redis-server, or set REDIS_SERVER=/path/to/redis-server';

function works(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * `{ server }`: a redis-server that runs, installed first as root on Debian when none is found;
 * `{ missing }`: one sentence saying why there is none.
 */
export function findRedisServer() {
  const candidate = process.env.REDIS_SERVER ?? 'redis-server';
  if (works(candidate)) return { server: candidate };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !isDebian()) return { missing: `no redis-server found (${candidate} does not run)` };
  console.log('No redis-server found: installing Debian package `redis-server` with apt-get...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
  } catch (error) {
    return { missing: `no redis-server found, and apt-get could not install it (${error.message.split('\n')[0]})` };
  }
  if (works('redis-server')) return { server: 'redis-server' };
  return { missing: 'apt-get installed `redis-server`, but redis-server still does not run' };
}

/** A redis-server for `npm test`, whose sweep tests must run: exits with instructions when there is none. */
export function ensureRedisServer() {
  const found = findRedisServer();
  if (found.server) return found.server;
  console.error(`${found.missing}. The sweep tests need it; install it, then run npm test again:\n  ${REDIS_INSTALL_HINT}`);
  process.exit(1);
}

/** Test files (relative to `root`) that start a redis-server: those that import its fixture. */
export function redisTestFiles(root) {
  const found = [];
  const visit = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(relative);
      else if (entry.name.endsWith('.test.ts') && /fixtures\/redis-server['"]/.test(readFileSync(path.join(root, relative), 'utf8'))) found.push(relative);
    }
  };
  for (const dir of ['src', 'workers', 'scripts']) if (existsSync(path.join(root, dir))) visit(dir);
  return found.sort();
}

/** Pids of the redis-server processes running now (Linux /proc; empty elsewhere). */
export function redisServerPids() {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'redis-server';
    } catch {
      return false;
    }
  }).map(Number);
}

/**
 * Stops every redis-server that is running now but was not in `before` (those the tests started and
 * left behind), and returns their pids; the caller counts them as a failure.
 */
export function stopLeftoverRedis(before) {
  const left = redisServerPids().filter((pid) => !before.includes(pid));
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return left;
}
