/**
 * CPU time spent by this thread, and by this process's finished children. On a machine other
 * jobs share, a loop's wall time includes the time it waited for a core; its CPU time does not,
 * so rates per CPU second compare two programs fairly when they ran at different moments.
 */
import { readFileSync } from 'node:fs';

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Seconds this thread has run on a CPU (Linux schedstat, in ns); elsewhere the whole process's user + system time. */
export function threadCpuSeconds(): number {
  const schedstat = readProc('/proc/thread-self/schedstat');
  if (schedstat) return Number(schedstat.split(' ')[0]) / 1e9;
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** Seconds of user + system time of this process's waited-for children (Linux, 10 ms ticks), or undefined. */
export function childrenCpuSeconds(): number | undefined {
  const stat = readProc('/proc/self/stat');
  if (!stat) return undefined;
  // Fields after the command name (which may hold spaces): cutime and cstime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
