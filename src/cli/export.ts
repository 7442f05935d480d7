/**
 * `npm run export -- ckpt=FILE.flowtune format=onnx|tfjs|reinflow|dppo out=FILE` (DESIGN.md §6, §10, §18): the
 * deterministic policy as ONNX (`out=FILE.onnx`, sampler overrides such as policy.denoise_steps=K allowed), the
 * Flowtune weights manifest with its optimizer state (`out=FILE.json`, weights in FILE.bin), or a policy of
 * ReinFlow's or DPPO's layout as that peer's own `.pt` and `normalization.npz` (`out=DIR`). A checkpoint that fails
 * validation, or a policy ONNX cannot express exactly, exits 1 with one `error:` line.
 */
import { exportCheckpointDppo, exportCheckpointOnnx, exportCheckpointReinflow, exportCheckpointTfjs } from './export-checkpoint';
import { parseRunArgs, runCli, UsageError } from './cli-args';
import { PEER_FILE_SPEC, warnUnusedPeerKeys } from './peer-files';
import { registerBuiltInTasks } from '../tasks';
import { useNodeBackend } from './node-backend';
import { resolveTaskArgument } from './task-loading';

const FORMATS = ['onnx', 'tfjs', 'reinflow', 'dppo'] as const;
/** Each file format's extension; reinflow and dppo write a peer's files into a folder. */
const EXTENSIONS: Record<Exclude<(typeof FORMATS)[number], 'reinflow' | 'dppo'>, string> = { onnx: '.onnx', tfjs: '.json' };

const SPEC = {
  ckpt: { kind: 'string', required: true, doc: 'checkpoint to export (.flowtune, or a ReinFlow or DPPO .pt with its normalization.npz)' },
  ...PEER_FILE_SPEC,
  format: { kind: 'enum', values: FORMATS, default: 'onnx', doc: "onnx: the deterministic policy as one graph (onnxruntime, no Flowtune code); tfjs: weights for Flowtune, with its optimizer state (not a graph); reinflow: a flow policy of ReinFlow's layout as ReinFlow's own .pt and normalization.npz; dppo: a diffusion policy of DPPO's layout as DPPO's own .pt and normalization.npz" },
  out: { kind: 'string', required: true, doc: 'output: FILE.onnx, FILE.json for tfjs (its weights go to FILE.bin beside it), or a folder for reinflow and dppo' },
  task: { kind: 'string', doc: 'optional: a task of your own (./path/ to it), so the checkpoint is also checked against it; the graph needs only the checkpoint' },
} as const;

async function main(): Promise<void> {
  // The checkpoint decides its architecture; sampler overrides (policy.denoise_steps=K) are checked once it is read.
  const { args, userOverrides } = parseRunArgs(await resolveTaskArgument(process.argv.slice(2)), SPEC, { program: 'npm run export --', validate: false });
  if (args.format !== 'reinflow' && args.format !== 'dppo') {
    const extension = EXTENSIONS[args.format];
    if (!args.out.toLowerCase().endsWith(extension)) throw new UsageError('out', `out must end in ${extension} for format=${args.format} (got '${args.out}')`);
  } else if (/\.(pt|pth|onnx|json|flowtune)$/i.test(args.out)) {
    throw new UsageError('out', `out names a folder for format=${args.format} (it gets <name>.pt and normalization.npz), got '${args.out}'`);
  }
  if (args.format !== 'onnx' && userOverrides.length > 0) {
    throw new UsageError(userOverrides[0].split('=')[0], `${userOverrides.join(' ')} does nothing with format=${args.format}, which copies the weights whole; the ONNX graph takes sampler settings`);
  }
  warnUnusedPeerKeys(args.ckpt, args);
  registerBuiltInTasks();
  await useNodeBackend('wasm');
  const summary = args.format === 'onnx' ? await exportCheckpointOnnx(args.ckpt, args.out, userOverrides, args)
    : args.format === 'tfjs' ? exportCheckpointTfjs(args.ckpt, args.out, args)
      : args.format === 'dppo' ? exportCheckpointDppo(args.ckpt, args.out, args) : exportCheckpointReinflow(args.ckpt, args.out, args);
  console.log(summary);
}

void runCli(main);
