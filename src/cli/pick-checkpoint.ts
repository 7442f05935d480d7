/**
 * `npx tsx src/cli/pick-checkpoint.ts run=DIR fraction=F` (or `return=R`): the checkpoint of a finished run whose
 * in-run evaluation return is closest to F × the final one (or to R), printed as a path (DESIGN.md §14: the
 * "medium" policy of ReinFlow's locomotion recipe is the expert's checkpoint at about a third of
 * its return, as D4RL's medium policies are). Only iterations that both evaluated and saved count.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseCliArgs, runCli, UsageError } from './cli-args';
import { readMetricsFile } from './metrics-file';
import { iterationCheckpointName } from '../core/run/run-loop';
import { pickCheckpointByReturn } from '../core/metrics/pick-by-return';

const SPEC = {
  run: { kind: 'string', required: true, doc: 'a finished run folder (metrics.jsonl and checkpoints/)' },
  fraction: { kind: 'number', min: 0, max: 1, default: 1 / 3, doc: 'target return as a fraction of the final evaluation return' },
  return: { kind: 'number', min: 0, max: 1e9, default: 0, doc: 'target return itself (0: use fraction=); e.g. a D4RL medium dataset\'s level' },
} as const;

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npx tsx src/cli/pick-checkpoint.ts' });
  const metricsFile = path.join(args.run, 'metrics.jsonl');
  if (!existsSync(metricsFile)) throw new UsageError('run', `${args.run} holds no metrics.jsonl; train it first`);
  const saved = (iteration: number) => existsSync(path.join(args.run, 'checkpoints', iterationCheckpointName(iteration)));
  const picked = pickCheckpointByReturn(readMetricsFile(metricsFile), args.return > 0 ? { absolute: args.return } : { fraction: args.fraction }, saved);
  console.error(`final eval return ${picked.finalReturn.toFixed(1)}; iteration ${picked.iteration} evaluated at ${picked.evalReturn.toFixed(1)} (target ${picked.target.toFixed(1)})`);
  console.log(path.join(args.run, 'checkpoints', iterationCheckpointName(picked.iteration)));
}

void runCli(main);
