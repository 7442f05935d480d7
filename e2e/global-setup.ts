import { execFileSync } from 'node:child_process';
import { FIXTURE_DIR } from './studio';

/** Writes the checkpoint fixtures once per e2e run (tiny models built in Node). */
export default function globalSetup(): void {
  execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['tsx', 'e2e/fixtures/make-fixtures.ts', FIXTURE_DIR], { stdio: 'inherit' });
}
