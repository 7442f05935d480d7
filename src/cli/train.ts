/**
 * `npm run train -- task=T ckpt=FILE.flowtune out=DIR key=value...`: PPO fine-tuning
 * (DESIGN.md §4, §10). One progress line per iteration; the run folder gets
 * metrics.jsonl, metrics.csv, config.json and checkpoints/*.flowtune. A checkpoint that
 * carries optimizer state resumes at its iteration.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, parseRunArgs } from './cli-args';
import { bundleContents } from '../core/checkpoint/policy-checkpoint';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { TASK_NAMES } from '../core/envs/task-types';
import { formatMetricsCsv, formatMetricsJsonlLine, formatProgressLine } from '../core/metrics';
import { evalSummaryRecord } from '../core/rl/evaluate';
import { PpoTrainer } from '../core/rl/trainer';
import { loadRunCheckpoint, openEvalEnv, openTrainingEnv, prepareRuntime } from './run-setup';

const SPEC = {
  task: { kind: 'enum', values: TASK_NAMES, required: true, doc: 'task to fine-tune on' },
  ckpt: { kind: 'string', required: true, doc: 'pretrained (or resumed) checkpoint (.flowtune)' },
  out: { kind: 'string', default: '', doc: 'run folder (default runs/<task>-<time>)' },
} as const;

async function main(): Promise<void> {
  const { args, config: parsed, overrides } = parseRunArgs(process.argv.slice(2), SPEC, { program: 'npm run train --' });
  await prepareRuntime();
  const { loaded, config } = await loadRunCheckpoint(args.ckpt, parsed, overrides);
  const runDir = args.out || path.join('runs', `${config.task}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(path.join(runDir, 'checkpoints'), { recursive: true });
  writeFileSync(path.join(runDir, 'config.json'), JSON.stringify(config, null, 2) + '\n');
  const metricsPath = path.join(runDir, 'metrics.jsonl');
  writeFileSync(metricsPath, '');
  const env = await openTrainingEnv(config);
  const evalEnv = config.eval_episodes > 0 ? await openEvalEnv(config, config.eval_episodes) : undefined;
  const trainer = new PpoTrainer({ bundle: loaded.bundle, env, evalEnv, config });
  if (loaded.progress) {
    trainer.restore(loaded.progress);
    console.error(`resuming at iteration ${trainer.iteration} (${trainer.envSteps} env steps)`);
  }
  const save = async (name: string) => {
    const evalSummary = evalSummaryRecord(trainer.lastEval);
    const bytes = encodeFlowtune(await bundleContents({ bundle: loaded.bundle, task: config.task, stage: 'ppo', config, progress: await trainer.progress(), evalSummary }));
    const file = path.join(runDir, 'checkpoints', name);
    writeFileSync(file, bytes);
    return file;
  };
  try {
    while (!trainer.done) {
      const record = await trainer.step();
      appendFileSync(metricsPath, formatMetricsJsonlLine(record) + '\n');
      console.log(formatProgressLine(record, trainer.sizes.iterations));
      if (config.checkpoint_every > 0 && trainer.iteration % config.checkpoint_every === 0 && !trainer.done) {
        await save(`iter-${String(trainer.iteration).padStart(6, '0')}.flowtune`);
        writeFileSync(path.join(runDir, 'metrics.csv'), formatMetricsCsv(trainer.history));
      }
    }
    const finalPath = await save('final.flowtune');
    writeFileSync(path.join(runDir, 'metrics.csv'), formatMetricsCsv(trainer.history));
    const last = trainer.history.at(-1) ?? {};
    console.log(JSON.stringify({
      task: config.task, iterations: trainer.iteration, env_steps: trainer.envSteps, wall_s: last['progress/wall_s'] ?? 0,
      eval_success_rate: trainer.lastEval?.successRate ?? null, checkpoint: finalPath, run_dir: runDir,
    }));
  } finally {
    trainer.dispose();
    loaded.bundle.policy.dispose();
    await env.dispose();
    await evalEnv?.dispose();
  }
}

void runCli(main);
