// Finds Debian's redis-server for the sweep tests (REDIS_SERVER, then the PATH); as root on
// Debian it installs the package with apt-get, otherwise it says what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isDebian } from './find-chromium.mjs';

function works(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

export function ensureRedisServer() {
  const candidate = process.env.REDIS_SERVER ?? 'redis-server';
  if (works(candidate)) return candidate;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && isDebian()) {
    console.log('No redis-server found: installing Debian package `redis-server` with apt-get...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
    if (works('redis-server')) return 'redis-server';
    throw new Error('apt-get installed `redis-server`, but redis-server still does not run.');
  }
  console.error(
    'No redis-server found for the sweep tests. Install it, then run npm test again:\n' +
      '  Debian/Ubuntu: sudo apt-get install redis-server\n' +
      '  or set REDIS_SERVER=/path/to/redis-server',
  );
  process.exit(1);
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
