import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(new URL(import.meta.url).pathname);
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-parent-link-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a run started by a sweep', () => {
  it('stops when the sweep process is killed with SIGKILL, and says why', async () => {
    const log = path.join(dir, 'run.log');
    const parent = spawn(process.execPath, [path.join(here, 'fixtures', 'sweep-parent.mjs'), path.join(here, 'fixtures', 'linked-run.ts'), log], { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    parent.stdout!.on('data', (chunk) => { printed += chunk; });
    await until(() => /^\d+\n/.test(printed), 'the parent to start the run', 20_000);
    const runPid = Number(printed.trim());
    await until(() => readFileSync(log, 'utf8').includes('linked'), 'the run to link to its parent', 20_000);
    parent.kill('SIGKILL');
    // Without the link the orphan would run forever; with it, it exits at once.
    await until(() => !alive(runPid), 'the orphaned run to stop', 10_000);
    expect(readFileSync(log, 'utf8')).toContain('the sweep process that started this run went away: stopping');
  }, 60_000);
});
