/**
 * `npm run pretrain -- task=T demos=FILE out=FILE.flowtune [resume=true] ...`: stage 1 of the recipe, flow-matching
 * BC from a demonstration file (DESIGN.md §3, §12), as core/run's runPretrainStage runs it with the
 * config's pretrain.* fields (short keys steps=, batch_size=, lr=, ... name them too). This host
 * reads the demos, prints progress, and writes the checkpoint durably. Every pretrain.save_every
 * steps it saves the state a stopped BC continues from as OUT.resume; resume=true continues from it,
 * exactly, and the finished checkpoint removes it.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolveTaskArgument } from './task-loading';
import { CLI_PRETRAIN_HOST, stageEvalOff, validateConfig } from '../core/config';
import { overriddenKeys, pretrainConfigForDemos } from '../core/config/pretrain-demos';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { InThreadBatchEnv } from '../core/envs/in-thread-batch-env';
import { ConfigError } from '../core/errors';
import { evalMeasureText } from '../core/rl/evaluate';
import { runPretrainStage } from '../core/run/pretrain-stage';
import { printConfigWarnings, runCli, parseRunArgs, UsageError } from './cli-args';
import { readDemosFile } from './demos-file';
import { writeFileDurable } from './durable-write';
import type { KeyAliases } from './key-aliases';
import { loadMujocoNode } from './mujoco-node';
import { prepareRuntime } from './run-setup';

const SPEC = {
  task: { kind: 'string', required: true, doc: 'task the demos are for: a built-in name, or ./path/ to a task of your own' },
  demos: { kind: 'string', required: true, doc: 'demonstration file from npm run demos' },
  out: { kind: 'string', required: true, doc: 'checkpoint to write (.flowtune); OUT.resume holds the state a stopped BC continues from' },
  resume: { kind: 'bool', default: false, doc: 'continue the stopped BC saved in OUT.resume, exactly, with the same demos and settings (a longer steps= may be given)' },
} as const;

/** The short keys README.md and scripts/reproduce-checkpoints.sh use. */
const ALIASES: KeyAliases = {
  steps: 'pretrain.steps', batch_size: 'pretrain.batch_size', lr: 'pretrain.lr', ema: 'pretrain.ema', shortcut: 'pretrain.shortcut',
  episodes: 'pretrain.episodes', eval_every: 'pretrain.eval_every', save_every: 'pretrain.save_every',
};

/** The file beside the checkpoint that holds a stopped BC's state. */
const resumePath = (out: string) => `${out}.resume`;

async function main(): Promise<void> {
  const { args, config: parsed, userOverrides } = parseRunArgs((await resolveTaskArgument(process.argv.slice(2))), SPEC, { program: 'npm run pretrain --', aliases: ALIASES, validate: false });
  const parsedConfig = validateConfig(stageEvalOff(parsed, overriddenKeys(userOverrides)));
  await prepareRuntime();
  const { demos, metadata } = readDemosFile(args.demos);
  if (metadata.task !== args.task) throw new ConfigError('task', `demos file is for task '${metadata.task}' but task is '${args.task}'`);
  const config = pretrainConfigForDemos(parsedConfig, metadata, overriddenKeys(userOverrides));
  // Judged in the demos' observation, which stage 1 takes (image-encoder keys act on image demos).
  printConfigWarnings(config, userOverrides, CLI_PRETRAIN_HOST);
  const stateFile = resumePath(args.out);
  let resumeFrom: { name: string; bytes: Uint8Array } | undefined;
  if (args.resume) {
    if (!existsSync(stateFile)) throw new UsageError('resume', `resume=true continues the stopped BC saved in ${stateFile}, but there is no such file (a finished pretrain removes it)`);
    resumeFrom = { name: `'${stateFile}'`, bytes: new Uint8Array(readFileSync(stateFile)) };
  } else if (existsSync(stateFile)) {
    console.error(`warning: ${stateFile} holds a stopped BC; starting over replaces it (resume=true continues it)`);
  }
  const mj = await loadMujocoNode();
  const { steps } = config.pretrain;
  const result = await runPretrainStage({
    config,
    demos: { demos, metadata, source: `demos file '${args.demos}'` },
    resumeFrom,
    saveResume: async (_step, contents) => writeFileDurable(stateFile, encodeFlowtune(contents)),
    ports: {
      openEnv: async (envConfig) => new InThreadBatchEnv(mj, envConfig),
      onPhase: (line) => console.error(line),
      onProgress: (step, loss, seconds) => console.log(`step ${step}/${steps} loss ${loss.toFixed(4)} ${seconds.toFixed(1)}s`),
      // The same episodes, seeds and x_0 draws as `npm run eval` with its defaults, so the stored figure can be checked.
      onEval: (step, summary) => console.log(`eval${step < steps ? ` at step ${step}` : ''}: ${evalMeasureText(summary)} over ${summary.episodes} episodes from seed ${summary.seed}`),
    },
  });
  writeFileDurable(args.out, encodeFlowtune(result.contents));
  rmSync(stateFile, { force: true });
  console.log(JSON.stringify({ task: args.task, out: args.out, samples: result.samples, steps, ...result.finalEval }));
}

void runCli(main);
