/** One row of `npm run bench -- json=FILE` (DESIGN.md §10). */
export interface BenchRow {
  group: BenchGroup;
  metric: string;
  value: number;
  unit: string;
  task?: string;
  backend?: string;
  /** Network sizes and other context: obs dim, horizon, action dim, hidden sizes, K and batch for policy/ppo rows. */
  note?: string;
}

export const BENCH_GROUPS = ['env', 'policy', 'ppo', 'e2e', 'studio', 'gpu'] as const;
/** Groups run when none is named; `studio` needs Chromium and a build, and `gpu` repeats `policy` on every backend, so they run only when asked for. */
export const DEFAULT_BENCH_GROUPS: readonly BenchGroup[] = ['env', 'policy', 'ppo', 'e2e'];
export type BenchGroup = (typeof BENCH_GROUPS)[number];

/**
 * A bench group runs its measurements and returns rows; it may print progress to stderr.
 * `tasks` (the command line's tasks=A,B) limits groups that measure per task.
 */
export type BenchGroupRunner = (tasks?: readonly string[]) => Promise<BenchRow[]>;
