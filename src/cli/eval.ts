/**
 * `npm run eval -- task=T ckpt=FILE.flowtune episodes=N seed=S`: deterministic ODE evaluation
 * (DESIGN.md §4, §10). The last stdout line is JSON with the success rate and mean return (a task
 * without a success rule has no success_rate key: its return measures it). `ckpt=FILE.onnx`
 * runs an exported policy through onnxruntime-node on the same seeds and x_0 draws. `backend=`
 * names the tfjs backend the chains run on (wasm by default; webgpu through Dawn).
 */
import { resolveTaskArgument } from './task-loading';
import { CLI_NO_PPO_HOST, listConfigProblems } from '../core/config';
import { printConfigWarnings, runCli, parseRunArgs } from './cli-args';
import { EVAL_DEFAULTS, evaluateCheckpoint, isOnnxPath } from './evaluate-checkpoint';
import { prepareRuntime } from './run-setup';
import { chooseCliBackend } from './backend-choice';
import { NODE_BACKENDS } from './node-backend';
import { PEER_FILE_SPEC, warnUnusedPeerKeys } from './peer-files';

const SPEC = {
  task: { kind: 'string', required: true, doc: 'task to evaluate on: a built-in name, or ./path/ to a task of your own' },
  ckpt: { kind: 'string', required: true, doc: 'checkpoint (.flowtune, or a ReinFlow or DPPO .pt with its normalization.npz), or an exported policy (.onnx, run through onnxruntime-node)' },
  ...PEER_FILE_SPEC,
  episodes: { kind: 'int', min: 1, max: 100_000, default: EVAL_DEFAULTS.episodes, doc: 'episodes, one per seed' },
  seed: { kind: 'int', min: 0, max: 2 ** 31 - 1, default: EVAL_DEFAULTS.seed, doc: 'first reset seed (episode e uses seed + e); kept apart from training seeds' },
  batch: { kind: 'int', min: 1, max: 4096, default: EVAL_DEFAULTS.batch, doc: 'episodes run side by side' },
  backend: { kind: 'enum', values: NODE_BACKENDS, default: 'wasm', doc: 'tfjs backend the chains run on (webgpu via Dawn; no adapter is a one-line error); an .onnx file runs on onnxruntime whatever it says' },
} as const;

async function main(): Promise<void> {
  // The checkpoint still decides horizon and K; loadRunCheckpoint validates once they are in.
  const { args, config: parsed, overrides, userOverrides } = parseRunArgs((await resolveTaskArgument(process.argv.slice(2))), SPEC, { program: 'npm run eval --', validate: false });
  // A config with problems ends in one error line from loadRunCheckpoint, with no warnings before it.
  if (listConfigProblems(parsed).length === 0) printConfigWarnings(parsed, userOverrides, CLI_NO_PPO_HOST);
  warnUnusedPeerKeys(args.ckpt, args);
  await prepareRuntime();
  if (isOnnxPath(args.ckpt)) {
    if (args.backend !== 'wasm') console.error(`warning: backend=${args.backend} does nothing for an .onnx file: onnxruntime runs it`);
  } else if (args.backend !== 'wasm') {
    console.error((await chooseCliBackend(args.backend, undefined)).line);
  }
  const result = await evaluateCheckpoint(args.ckpt, parsed, overrides, {
    episodes: args.episodes, seed: args.seed, batch: args.batch,
    onBatch: (done, successes, meanReturn) => console.error(`evaluated ${done}/${args.episodes} episodes: `
      + (successes !== undefined ? `success ${successes}/${done}` : `mean return ${meanReturn.toFixed(2)}`)),
  }, args);
  console.log(JSON.stringify(result));
}

void runCli(main);
