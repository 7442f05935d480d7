/**
 * `npm run scene -- task=T`: prints the task's MJCF. It is self-contained (no
 * includes, no assets), so it opens in MuJoCo's own tools (simulate, testspeed).
 */
import { parseCliArgs, runCli } from './cli-args';
import { TASK_NAMES } from '../core/envs/task-types';
import { getTask } from '../core/envs/registry';

const SPEC = {
  task: { kind: 'enum', values: TASK_NAMES, required: true, doc: 'task whose scene to print' },
} as const;

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npm run scene --' });
  process.stdout.write(getTask(args.task).mjcf());
}

void runCli(main);
