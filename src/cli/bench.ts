import { writeFileSync } from 'node:fs';
import { BENCH_GROUPS, DEFAULT_BENCH_GROUPS, type BenchGroup, type BenchGroupRunner, type BenchRow } from './bench/bench-row';
import { formatTable } from './bench/format-table';
import { registerBuiltInTasks } from '../tasks';
import { taskNames } from '../core/envs/task-registry';

/** Each group lives in its own module so a group's imports load only when it runs. */
const GROUP_MODULES: Partial<Record<BenchGroup, () => Promise<{ runBench: BenchGroupRunner }>>> = {
  env: () => import('./bench/env-bench'),
  policy: () => import('./bench/policy-bench'),
  ppo: () => import('./bench/ppo-bench'),
  e2e: () => import('./bench/e2e-bench'),
  studio: () => import('./bench/studio-bench'),
  gpu: () => import('./bench/gpu-bench'),
};

function usage(message: string): never {
  console.error(`${message}\nusage: npm run bench -- [${BENCH_GROUPS.join('|')} ...] [tasks=A,B] [json=FILE]`);
  process.exit(2);
}

async function main(): Promise<void> {
  // Groups build policies and exports for named tasks, as every host does after registering them.
  registerBuiltInTasks();
  const groups: BenchGroup[] = [];
  let jsonPath: string | undefined;
  let tasks: string[] | undefined;
  for (const arg of process.argv.slice(2)) {
    if (arg.startsWith('json=')) jsonPath = arg.slice('json='.length);
    else if (arg.startsWith('tasks=')) tasks = arg.slice('tasks='.length).split(',');
    else if ((BENCH_GROUPS as readonly string[]).includes(arg)) groups.push(arg as BenchGroup);
    else usage(`unknown bench argument '${arg}'; allowed groups: ${BENCH_GROUPS.join(', ')}`);
  }
  const unknown = tasks?.find((task) => !taskNames().includes(task));
  if (unknown !== undefined) usage(`unknown task '${unknown}' in tasks=; allowed: ${taskNames().join(', ')}`);
  const selected = groups.length > 0 ? groups : [...DEFAULT_BENCH_GROUPS];
  const rows: BenchRow[] = [];
  for (const group of selected) {
    const load = GROUP_MODULES[group];
    if (!load) {
      console.error(`bench group '${group}' has no measurements yet; skipped`);
      continue;
    }
    const mod = await load();
    console.error(`running bench group '${group}'...`);
    rows.push(...(await mod.runBench(tasks)));
  }
  console.log(formatTable(rows));
  if (jsonPath) {
    writeFileSync(jsonPath, JSON.stringify(rows, null, 2) + '\n');
    console.error(`wrote ${rows.length} rows to ${jsonPath}`);
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
