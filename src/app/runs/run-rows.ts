/** The run table's order, labels, groups, and when a kept run can be resumed. */
import type { ImportedSweep, QueueStatus, RecipePhase, RunListing, RunPhase } from '../../protocol/trainer-api';

/** The current run first, then the newest; ties keep a stable order by id. */
export function sortRunRows(runs: readonly RunListing[]): RunListing[] {
  return [...runs].sort((a, b) => Number(b.current) - Number(a.current) || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What the origin badge says: "current" for the run the trainer holds, else where it came from. */
export function originBadge(run: RunListing): string {
  return run.current ? 'current' : run.origin;
}

/** The sweep or queue a run belongs to, by the name a user knows it by; undefined when it has none. */
export function groupLabel(run: RunListing, sweeps: readonly ImportedSweep[], queue: QueueStatus | null): string | undefined {
  if (run.group === undefined) return undefined;
  const sweep = sweeps.find((entry) => entry.id === run.group);
  if (sweep) return `sweep ${sweep.name}`;
  if (run.origin === 'queue') return queue?.id === run.group ? `queue ${queue.preset}` : `queue ${run.group}`;
  return run.group;
}

export interface RunGroup {
  id: string;
  label: string;
  runIds: string[];
}

/** The sweeps and queues among the runs, each with its listed runs, in first-listed order. */
export function runGroups(runs: readonly RunListing[], sweeps: readonly ImportedSweep[], queue: QueueStatus | null): RunGroup[] {
  const groups = new Map<string, RunGroup>();
  for (const run of runs) {
    if (run.group === undefined) continue;
    const group = groups.get(run.group) ?? { id: run.group, label: groupLabel(run, sweeps, queue) ?? run.group, runIds: [] };
    group.runIds.push(run.id);
    groups.set(run.group, group);
  }
  return [...groups.values()];
}

/** A success rate as a percent with one decimal, "–" when the run never evaluated. */
export function formatSuccess(rate: number | undefined): string {
  return rate === undefined || !Number.isFinite(rate) ? '–' : `${(rate * 100).toFixed(1)}%`;
}

/** The eval column: the success rate, or for a task without a success rule the newest eval return ("return −12.3"). */
export function formatEvalResult(run: Pick<RunListing, 'finalSuccess' | 'finalReturn'>, hasSuccess: boolean): string {
  if (hasSuccess) return formatSuccess(run.finalSuccess);
  return run.finalReturn === undefined || !Number.isFinite(run.finalReturn) ? '–' : `return ${Number(run.finalReturn.toPrecision(4))}`;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** "14:02" for today, "2024-11-23 14:02" for another day (local time). */
export function formatUpdated(time: number, now: number = Date.now()): string {
  const date = new Date(time);
  const clock = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  if (date.toDateString() === new Date(now).toDateString()) return clock;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${clock}`;
}

/** Why a kept run cannot be resumed now (one run at a time, and never under a demos stage); undefined when it can. */
export function resumeBlocker(phase: RunPhase, recipePhase: RecipePhase | undefined): string | undefined {
  if (phase !== 'idle') return 'A run exists: Reset it first (it stays in this list), then resume another';
  if (recipePhase === 'running') return 'A New-from-demos stage is running: pause it or let it finish';
  return undefined;
}
