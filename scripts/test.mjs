// `npm test`: Vitest unit tests, then Playwright e2e in Chromium; ends with one "N passed, N failed" line.
// `npm run test:e2e` runs only the e2e half.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './find-chromium.mjs';
import { ensureRedisServer, redisServerPids, stopLeftoverRedis } from './find-redis.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const reportDir = path.join(root, 'test-results');
const onlyE2e = process.argv[2] === 'e2e';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function unitCounts(file) {
  const report = readJson(file);
  if (!report) return { passed: 0, failed: 1, note: 'unit report missing' };
  return { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0) };
}

function e2eCounts(file) {
  const report = readJson(file);
  if (!report?.stats) return { passed: 0, failed: 1, note: 'e2e report missing' };
  const { expected = 0, unexpected = 0, flaky = 0 } = report.stats;
  return { passed: expected + flaky, failed: unexpected + (report.errors?.length ?? 0) };
}

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const totals = [];

// Found (or installed) before the unit tests: the CLI tests that write PNG figures render them in it too.
const chromium = ensureChromium();

if (!onlyE2e) {
  const unitReport = path.join(reportDir, 'unit.json');
  // The sweep tests start a real redis-server on a free local port.
  const redisServer = ensureRedisServer();
  const redisBefore = redisServerPids();
  run(npx, ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`], { REDIS_SERVER: redisServer, CHROME_PATH: chromium });
  totals.push(['unit', unitCounts(unitReport)]);
  // Every process the tests start must be stopped by them; one left behind fails the run.
  const leftover = stopLeftoverRedis(redisBefore);
  if (leftover.length > 0) totals.push(['leftover processes', { passed: 0, failed: 1, note: `the unit tests left redis-server running (pids ${leftover.join(', ')}); stopped them` }]);
}

console.log(`e2e: Chromium at ${chromium}`);
const buildStatus = run(npx, ['vite', 'build', '--logLevel', 'warn']);
if (buildStatus !== 0) {
  totals.push(['e2e', { passed: 0, failed: 1, note: 'vite build failed' }]);
} else {
  const e2eReport = path.join(reportDir, 'e2e.json');
  run(npx, ['playwright', 'test', '--reporter=line,json'], { CHROME_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport });
  totals.push(['e2e', existsSync(e2eReport) ? e2eCounts(e2eReport) : { passed: 0, failed: 1, note: 'e2e report missing' }]);
}

let passed = 0;
let failed = 0;
console.log('');
for (const [name, counts] of totals) {
  passed += counts.passed;
  failed += counts.failed;
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed${counts.note ? ` (${counts.note})` : ''}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
