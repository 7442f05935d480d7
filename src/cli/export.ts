/**
 * `npm run export -- ckpt=FILE.flowtune format=onnx|tfjs out=FILE` (DESIGN.md §6, §10): the
 * deterministic policy as ONNX (`out=FILE.onnx`), or the Flowtune weights manifest with its
 * optimizer state (`out=FILE.json`, weights in FILE.bin). A checkpoint that fails validation,
 * or a policy ONNX cannot express exactly, exits 1 with one `error:` line.
 */
import { exportCheckpointOnnx, exportCheckpointTfjs } from './export-checkpoint';
import { parseRunArgs, runCli, UsageError } from './cli-args';
import { PEER_FILE_SPEC, warnUnusedPeerKeys } from './peer-files';
import { registerBuiltInTasks } from '../tasks';
import { useNodeBackend } from './node-backend';
import { resolveTaskArgument } from './task-loading';

const FORMATS = ['onnx', 'tfjs'] as const;
const EXTENSIONS: Record<(typeof FORMATS)[number], string> = { onnx: '.onnx', tfjs: '.json' };

const SPEC = {
  ckpt: { kind: 'string', required: true, doc: 'checkpoint to export (.flowtune, or a ReinFlow .pt with its normalization.npz)' },
  ...PEER_FILE_SPEC,
  format: { kind: 'enum', values: FORMATS, default: 'onnx', doc: 'onnx: the deterministic policy as one graph (onnxruntime, no Flowtune code); tfjs: weights for Flowtune, with its optimizer state (not a graph)' },
  out: { kind: 'string', required: true, doc: 'output file: FILE.onnx, or FILE.json for tfjs (its weights go to FILE.bin beside it)' },
  task: { kind: 'string', doc: 'optional: a task of your own (./path/ to it), so the checkpoint is also checked against it; the graph needs only the checkpoint' },
} as const;

async function main(): Promise<void> {
  // The checkpoint decides its architecture; sampler overrides (policy.denoise_steps=K) are checked once it is read.
  const { args, userOverrides } = parseRunArgs(await resolveTaskArgument(process.argv.slice(2)), SPEC, { program: 'npm run export --', validate: false });
  const extension = EXTENSIONS[args.format];
  if (!args.out.toLowerCase().endsWith(extension)) throw new UsageError('out', `out must end in ${extension} for format=${args.format} (got '${args.out}')`);
  if (args.format === 'tfjs' && userOverrides.length > 0) {
    throw new UsageError(userOverrides[0].split('=')[0], `${userOverrides.join(' ')} does nothing with format=tfjs, which copies the checkpoint whole; the ONNX graph takes sampler settings`);
  }
  warnUnusedPeerKeys(args.ckpt, args);
  registerBuiltInTasks();
  await useNodeBackend('wasm');
  const summary = args.format === 'onnx' ? await exportCheckpointOnnx(args.ckpt, args.out, userOverrides, args) : exportCheckpointTfjs(args.ckpt, args.out, args);
  console.log(summary);
}

void runCli(main);
