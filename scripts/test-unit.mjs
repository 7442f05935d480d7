// `npm run test:unit`: the unit half of `npm test`. It finds or installs redis-server and Chromium as
// `npm test` does; where it cannot get redis-server, the files that start one are left out and one line
// says why and how to install it (under `npm test` they always run). Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { canInstallChromium, ensureChromium, findChromium } from './find-chromium.mjs';
import { findRedisServer, REDIS_INSTALL_HINT, redisServerPids, redisTestFiles, stopLeftoverRedis } from './find-redis.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

const found = findRedisServer();
const args = ['vitest', 'run', ...process.argv.slice(2)];
const env = { ...process.env };
let skipped = '';
if (found.server) {
  env.REDIS_SERVER = found.server;
} else {
  const files = redisTestFiles(root);
  for (const file of files) args.push('--exclude', file);
  skipped = `unit: skipped ${files.join(', ')}: ${found.missing}. To run them: ${REDIS_INSTALL_HINT}`;
}

// The CLI tests that write PNG figures render them in Chromium, found or installed as npm test does.
const chromium = findChromium() ?? (canInstallChromium() ? ensureChromium() : undefined);
if (chromium) env.CHROME_PATH = chromium;
else console.log('unit: no Chromium found, so the tests that render PNG figures fail; install one (Debian: apt-get install chromium) or set CHROME_PATH');

const redisBefore = redisServerPids();
const result = spawnSync(npx, args, { cwd: root, stdio: 'inherit', env });
let status = result.status ?? 1;
// As under `npm test`, a redis-server the tests leave running is stopped and fails the run.
const leftover = stopLeftoverRedis(redisBefore);
if (leftover.length > 0) {
  console.error(`unit: the tests left redis-server running (pids ${leftover.join(', ')}); stopped them`);
  status = 1;
}
if (skipped) console.log(skipped);
process.exit(status);
