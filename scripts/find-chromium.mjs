// Locates a Chromium for Playwright: CHROME_PATH, then /usr/bin/chromium, then Chrome.
// As root on Debian with none found, installs Debian's `chromium` package with apt-get.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';

const CANDIDATE_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function onPath(name) {
  const result = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : undefined;
}

export function isDebian() {
  return existsSync('/etc/debian_version') || (existsSync('/etc/os-release') && /ID(_LIKE)?=.*debian/i.test(readFileSync('/etc/os-release', 'utf8')));
}

export function findChromium() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH is set to '${fromEnv}', but no file is there.`);
    return fromEnv;
  }
  for (const candidate of CANDIDATE_PATHS) if (existsSync(candidate)) return candidate;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    const found = onPath(name);
    if (found) return found;
  }
  return undefined;
}

/** True where Debian's `chromium` package can be installed here (as root on Debian). */
export function canInstallChromium() {
  return typeof process.getuid === 'function' && process.getuid() === 0 && isDebian();
}

/** Returns a Chromium path, installing Debian's package when allowed; exits with instructions otherwise. */
export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (canInstallChromium()) {
    console.log('No Chromium found: installing Debian package `chromium` with apt-get...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    const installed = findChromium();
    if (installed) return installed;
    throw new Error('apt-get installed `chromium`, but /usr/bin/chromium is still missing.');
  }
  console.error(
    'No Chromium or Chrome found for the e2e tests. Install one, then run npm test again:\n' +
      '  Debian/Ubuntu: sudo apt-get install chromium\n' +
      '  or set CHROME_PATH=/path/to/chrome',
  );
  process.exit(1);
}
