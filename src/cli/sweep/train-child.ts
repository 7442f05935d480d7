import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TRAIN_SCRIPT = fileURLToPath(new URL('../train.ts', import.meta.url));

/** Runs `npm run train` into a fresh `runDir` in a child process, logging to runDir/train.log; resolves with its exit code. */
export function trainChild(runDir: string, ckpt: string, overrides: readonly string[]): Promise<number> {
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const log = openSync(path.join(runDir, 'train.log'), 'w');
  // The same Node with the same loader flags (tsx) that runs this command runs the child. Its IPC
  // channel tells it when this process dies (parent-link.ts).
  const child = spawn(process.execPath, [...process.execArgv, TRAIN_SCRIPT, `ckpt=${ckpt}`, `out=${runDir}`, ...overrides], { stdio: ['ignore', log, log, 'ipc'] });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (code: number) => {
      if (settled) return;
      settled = true;
      closeSync(log);
      resolve(code);
    };
    child.on('exit', (code, signal) => finish(code ?? (signal ? 128 : 1)));
    child.on('error', () => finish(1));
  });
}

/** The last line a run's training log holds, for a one-line failure message. */
export function lastLogLine(runDir: string): string {
  const file = path.join(runDir, 'train.log');
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '(empty log)';
}
