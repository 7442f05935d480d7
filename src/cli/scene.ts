/**
 * `npm run scene -- task=T`: prints the task's MJCF. A built-in's is self-contained (no includes,
 * no assets), so it opens in MuJoCo's own tools (simulate, testspeed); a task of your own prints
 * its scene as its folder holds it, meshes beside it.
 */
import { resolveTaskArgument } from './task-loading';
import { parseCliArgs, runCli } from './cli-args';
import { getTask } from '../core/envs/task-registry';

const SPEC = {
  task: { kind: 'string', required: true, doc: 'task whose scene to print: a built-in name, or ./path/ to a task of your own' },
} as const;

async function main(): Promise<void> {
  const args = parseCliArgs((await resolveTaskArgument(process.argv.slice(2))), SPEC, { program: 'npm run scene --' });
  process.stdout.write(getTask(args.task).scene.xml);
}

void runCli(main);
