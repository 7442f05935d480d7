import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFolder } from '../durable-write';

const TRAIN_SCRIPT = fileURLToPath(new URL('../train.ts', import.meta.url));

/** How a training child ended: its exit code, or the signal that killed it, or the time limit. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

/** True when the child was killed from outside (a signal, or its sweep parent went away), not failed on its own. */
export function killedFromOutside(exit: ChildExit): boolean {
  // 130: the child saw its sweep parent go away (parent-link.ts); 137/143: a shell reported SIGKILL/SIGTERM.
  return !exit.timedOut && (exit.signal !== null || exit.code === 130 || exit.code === 137 || exit.code === 143);
}

export function describeExit(exit: ChildExit): string {
  if (exit.timedOut) return 'ran past its time limit and was stopped';
  return exit.signal ? `was killed by ${exit.signal}` : `exited with ${exit.code}`;
}

export interface TrainChildOptions {
  /** Kills the child (SIGKILL) after this many milliseconds; no limit when absent. */
  timeoutMs?: number;
  /** Called with the child's pid once it runs. */
  onStart?: (pid: number) => void;
  /** Where the child loads a user's task from (its task= override names the task; the child needs the path). */
  taskSource?: string;
}

/** Runs `npm run train` into a fresh `runDir` in a child process, logging to runDir/train.log; `ckpt` '' starts from a fresh policy. */
export function trainChild(runDir: string, ckpt: string, overrides: readonly string[], options: TrainChildOptions = {}): Promise<ChildExit> {
  const source = options.taskSource;
  const args = source === undefined ? overrides : overrides.map((override) => (override.startsWith('task=') ? `task=${source}` : override));
  rmSync(runDir, { recursive: true, force: true });
  makeFolder(runDir);
  const log = openSync(path.join(runDir, 'train.log'), 'w');
  // The same Node with the same loader flags (tsx) that runs this command runs the child. Its IPC
  // channel tells it when this process dies (parent-link.ts).
  const child = spawn(process.execPath, [...process.execArgv, TRAIN_SCRIPT, ...(ckpt ? [`ckpt=${ckpt}`] : []), `out=${runDir}`, ...args], { stdio: ['ignore', log, log, 'ipc'] });
  if (child.pid !== undefined) options.onStart?.(child.pid);
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    const finish = (exit: Omit<ChildExit, 'timedOut'>) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      closeSync(log);
      resolve({ ...exit, timedOut });
    };
    child.on('exit', (code, signal) => finish({ code, signal }));
    child.on('error', () => finish({ code: 1, signal: null }));
  });
}

/** The last line a run's training log holds, for a one-line failure message. */
export function lastLogLine(runDir: string): string {
  const file = path.join(runDir, 'train.log');
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '(empty log)';
}
