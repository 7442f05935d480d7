/**
 * `npx tsx src/cli/methods-plan.ts tasks=hopper,walker2d,pick-cube,pick-cube-rgb seeds=0,1,2 runs=runs/reproduce
 * ckpts=public/checkpoints [all=true]`: the runs `npm run results -- compare=methods` reads that are not
 * trained yet, as `npm run reproduce -- methods` trains them, one tab-separated line each:
 *
 *     start <TAB> <ckpts>/<row>-<kind>.flowtune <TAB> <row> <kind>   a BC checkpoint a listed run starts from, not there yet
 *     train <TAB> <runs>/<run> <TAB> <the npm run train -- arguments>
 *
 * A run is trained when its folder holds checkpoints/final.flowtune. `all=true` lists every run,
 * trained or not: the command lines the table's runs come from. A method that does not apply to a
 * row, and a run folder that holds another method's run (left as it is), are each said in one line on
 * stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readDecimal } from '../core/config';
import { taskHasSuccess } from '../core/rl/evaluate';
import { registerBuiltInTasks } from '../tasks';
import { parseCliArgs, runCli, UsageError } from './cli-args';
import { METHOD_ROWS, METHODS, methodOnRow, runName, signatureMismatch, startFileName, trainArguments, type RunSignature } from './methods';
import { taskOfRow } from './task-row';

const SPEC = {
  tasks: { kind: 'string', default: METHOD_ROWS.join(','), doc: 'comma-separated rows: tasks, or <task>-rgb / <task>-pointcloud' },
  seeds: { kind: 'string', default: '0,1,2', doc: 'comma-separated training seeds' },
  runs: { kind: 'string', default: 'runs/reproduce', doc: 'folder the run folders go in' },
  ckpts: { kind: 'string', default: 'public/checkpoints', doc: 'folder holding the BC checkpoints' },
  all: { kind: 'bool', default: false, doc: 'list every run, trained or not' },
} as const;

/** Why a run folder holds no run of this method that the plan may replace, or undefined when it may train there. */
function occupied(runDir: string, id: (typeof METHODS)[number]['id']): string | undefined {
  const file = path.join(runDir, 'config.json');
  if (!existsSync(file)) return undefined;
  return signatureMismatch(JSON.parse(readFileSync(file, 'utf8')) as RunSignature, id);
}

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npx tsx src/cli/methods-plan.ts' });
  registerBuiltInTasks();
  const seeds = args.seeds.split(',').map((text) => readDecimal(text.trim()).value);
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new UsageError('seeds', `seeds must be comma-separated integers, got '${args.seeds}'`);
  const starts = new Map<string, string>();
  const trains: string[] = [];
  for (const row of args.tasks.split(',').map((entry) => entry.trim()).filter(Boolean)) {
    const hasSuccess = taskHasSuccess(taskOfRow(row));
    for (const method of METHODS) {
      const onRow = methodOnRow(row, hasSuccess, method.id);
      if ('notApplicable' in onRow) {
        console.error(`${row}: ${method.label} does not apply: ${onRow.notApplicable}`);
        continue;
      }
      for (const seed of seeds) {
        const runDir = path.join(args.runs, runName(row, hasSuccess, method.id, seed));
        const other = occupied(runDir, method.id);
        if (other) {
          console.error(`warning: ${runDir} is left as it is: ${other}; move it to train ${method.label} there`);
          continue;
        }
        if (!args.all && existsSync(path.join(runDir, 'checkpoints', 'final.flowtune'))) continue;
        trains.push(`train\t${runDir}\t${trainArguments(row, hasSuccess, method.id, onRow.recipe, seed, args).join(' ')}`);
        const start = startFileName(row, method.id);
        const startFile = start && path.join(args.ckpts, start);
        if (startFile && !existsSync(startFile)) starts.set(startFile, `start\t${startFile}\t${row} ${method.start}`);
      }
    }
  }
  for (const line of [...starts.values(), ...trains]) console.log(line);
}

void runCli(main);
