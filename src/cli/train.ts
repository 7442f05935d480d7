/**
 * `npm run train -- task=T [ckpt=FILE.flowtune] out=DIR [preset=NAME] [resume=true|overwrite=true] key=value...`:
 * PPO fine-tuning (DESIGN.md §4, §10) on the run layer; without ckpt= the run starts from a
 * freshly initialized policy sized to the task, its architecture from the config. One progress line per iteration; the
 * run folder gets metrics.jsonl, metrics.csv, config.json and checkpoints/*.flowtune. A
 * checkpoint written during a run resumes it exactly, and its metrics.jsonl continues the
 * run's history. A folder that holds a run is refused unless resume=true continues it from its
 * newest checkpoint or overwrite=true replaces it (§15). backend=auto (the default) times the model
 * on each tfjs backend that starts and trains on the fastest; backend=wasm|cpu|webgpu names one.
 */
import { resolveTaskArgument } from './task-loading';
import { hasTask } from '../core/envs/task-registry';
import path from 'node:path';
import { CLI_TRAIN_HOST, configFromJson, validateConfig } from '../core/config';
import { formatProgressLine } from '../core/metrics';
import { finalEvalFields } from '../core/rl/evaluate';
import { openRun } from '../core/run/open-run';
import { timedModel } from '../core/backend/measured-model';
import { freshPolicyName } from '../core/run/fresh-policy-name';
import { trainLoop } from '../core/run/run-loop';
import { BACKEND_ARG, chooseCliBackend, chooseResumedBackend } from './backend-choice';
import { NODE_BACKENDS, releaseNodeBackends } from './node-backend';
import { PRESET_ARG, printConfigWarnings, runCli, parseRunArgs, UsageError } from './cli-args';
import { nodeRunPorts } from './node-run-ports';
import { clearRunFolder, planRunFolder, readRunFolderBackend, readRunFolderConfig } from './run-folder';
import { RunFolderStore } from './run-folder-store';
import { PEER_FILE_SPEC, warnUnusedPeerKeys } from './peer-files';
import { openCheckpointFile, prepareRuntime } from './run-setup';
import { stopWithSweepParent } from './sweep/parent-link';

const SPEC = {
  task: { kind: 'string', doc: 'task to fine-tune on: a built-in name, or ./path/ to a task of your own; with resume=true the run\'s own by default' },
  ckpt: { kind: 'string', doc: 'pretrained checkpoint (.flowtune, or a ReinFlow or DPPO .pt with its normalization.npz); without it training starts from a fresh policy; not with resume=true' },
  ...PEER_FILE_SPEC,
  out: { kind: 'string', default: '', doc: 'run folder (default runs/<task>-<time>)' },
  resume: { kind: 'bool', default: false, doc: 'continue the run in out= from its newest checkpoint, exactly' },
  overwrite: { kind: 'bool', default: false, doc: 'replace the run that out= holds' },
  preset: PRESET_ARG,
  backend: BACKEND_ARG,
} as const;

/** A run resumed without task= trains its own task, which must then be a built-in one: a task of the user's own needs its folder. */
function requireBuiltInTask(stored: unknown, runDir: string): void {
  const task = (stored as { task?: unknown }).task;
  if (typeof task === 'string' && hasTask(task)) return;
  throw new UsageError('task', `the run in out=${runDir} trained task '${String(task)}', which is not a built-in one; add task=./path/ to its folder`);
}

async function main(): Promise<void> {
  stopWithSweepParent();
  const argv = (await resolveTaskArgument(process.argv.slice(2)));
  // The checkpoint still decides horizon and K, so the whole config is validated once they are in.
  let parsed = parseRunArgs(argv, SPEC, { program: 'npm run train --', validate: false });
  const { args } = parsed;
  if (!args.task && !args.resume) throw new UsageError('task', `missing required key 'task' (${SPEC.task.doc})`);
  if (args.resume && !args.out) throw new UsageError('out', 'resume=true continues the run in out=; name its folder');
  const runDir = args.out || path.join('runs', `${args.task}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const plan = planRunFolder(runDir, { resume: args.resume, overwrite: args.overwrite });
  let ckpt = args.ckpt;
  if (plan.kind === 'resume') {
    if (ckpt) throw new UsageError('ckpt', `resume=true continues ${plan.checkpoint}; drop ckpt=${ckpt}`);
    ckpt = plan.checkpoint;
    const stored = readRunFolderConfig(runDir);
    if (!args.task) requireBuiltInTask(stored, runDir);
    // The run's own config, then this command line's overrides (a longer budget, say).
    parsed = parseRunArgs(argv, SPEC, { program: 'npm run train --', validate: false, base: configFromJson(stored, path.join(runDir, 'config.json')) });
  }
  warnUnusedPeerKeys(ckpt, args);
  await prepareRuntime();
  // Checked before the run folder is touched, so a contradicting override leaves nothing behind.
  const loaded = ckpt ? openCheckpointFile(ckpt, parsed.config, parsed, args) : { checkpoint: undefined, config: validateConfig(parsed.config) };
  const { config } = loaded;
  if (!loaded.checkpoint) console.error(`starting from a fresh ${freshPolicyName(config)} policy (no ckpt=)`);
  printConfigWarnings(config, parsed.userOverrides, CLI_TRAIN_HOST);
  // A resumed run under auto goes back to the backend it was saved on (backend.txt), so it continues bit-exact.
  const savedOn = plan.kind === 'resume' && args.backend === 'auto' ? readRunFolderBackend(runDir, NODE_BACKENDS) : undefined;
  // Timed before the run's tensors exist, so they are made on the chosen backend.
  const model = timedModel(config, loaded.checkpoint);
  const choice = savedOn ? await chooseResumedBackend(savedOn, model) : await chooseCliBackend(args.backend, model);
  console.error(choice.line);
  const backend = choice.backend;
  const opened = await openRun(config, loaded.checkpoint, nodeRunPorts(config));
  try {
    const { run } = opened;
    for (const note of opened.notes) console.error(`warning: ${note}`);
    if (run.iteration > 0) console.error(`resuming at iteration ${run.iteration} (${run.envSteps} env steps)`);
    if (plan.kind === 'fresh' && plan.clearFirst) clearRunFolder(runDir);
    const store = new RunFolderStore(runDir, config, run.history, backend);
    await trainLoop(run, store, {
      onRecord: (record) => console.log(formatProgressLine(record, run.sizes.iterations)),
      onNote: (note) => console.error(`warning: ${note}`),
    });
    const last = run.history.at(-1) ?? {};
    console.log(JSON.stringify({
      task: config.task, iterations: run.iteration, env_steps: run.envSteps, wall_s: last['progress/wall_s'] ?? 0,
      ...finalEvalFields(config.task, run.evalSummary()), checkpoint: store.checkpointPath('final.flowtune'), run_dir: runDir,
    }));
  } finally {
    await opened.close();
    releaseNodeBackends();
  }
}

void runCli(main);
