/**
 * The studio's Export → files: the run or the selected checkpoint as a .flowtune, as Flowtune's tfjs weights manifest,
 * and, for a policy of ReinFlow's layout, as ReinFlow's own .pt and normalization.npz.
 */
import { decodeFileContents, parseCheckpointFile, type CheckpointFiles } from '../run/open-checkpoint';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { exportTfjs } from '../checkpoint/tfjs-format';
import { TrainingError } from '../errors';
import type { Run } from '../run/run';
import { flowArchitectureOf } from '../checkpoint/checkpoint-file';
import { dppoExport } from '../checkpoint/peers/dppo-export';
import { reinflowExport } from '../checkpoint/peers/reinflow-export';
import { writeNpz } from '../checkpoint/torch/npz-writer';
import { writeTorchCheckpoint } from '../checkpoint/torch/torch-pt-writer';
import type { ModelExport, PeerFiles } from '../../protocol/trainer-api';

const WEIGHTS_FILE = 'model.weights.bin';

function asFiles(contents: FlowtuneContents, baseName: string): ModelExport {
  const { modelJson, weightsBin } = exportTfjs(contents, { weightsFileName: WEIGHTS_FILE });
  return { flowtune: encodeFlowtune(contents), modelJson, weightsBin, weightsFileName: WEIGHTS_FILE, baseName };
}

/**
 * The run as it is now, or with no run the selected checkpoint as its file holds it, as a
 * .flowtune and as Flowtune's tfjs weights manifest (weights and optimizer state).
 */
export async function exportModelFiles(run: Run | undefined, selected: SelectedModel | undefined): Promise<ModelExport> {
  const { contents, baseName } = await modelContents(run, selected);
  return asFiles(contents, baseName);
}

type SelectedModel = { files: CheckpointFiles; info: { source: string } };

/** The run's contents now, or the selected checkpoint's as its file holds them, with the name files of it take. */
async function modelContents(run: Run | undefined, selected: SelectedModel | undefined): Promise<{ contents: FlowtuneContents; baseName: string }> {
  if (run) return { contents: await run.contents(), baseName: `${run.config.task}-ppo-it${run.iteration}` };
  if (!selected) throw new TrainingError('there is no model to export: drop a checkpoint in, or train one first');
  // The file was validated when it was selected; its own contents are copied whole, as `npm run export` does.
  const contents = decodeFileContents(parseCheckpointFile(selected.files));
  return { contents, baseName: selected.info.source.replace(/^.*\//, '').replace(/\.(flowtune|json|tfjs\.zip|pth?)$/, '') };
}

/**
 * A policy of a peer's layout as the peer's own files: ReinFlow's for a flow policy (`npm run export -- format=reinflow`),
 * DPPO's for a diffusion policy (`format=dppo`); another is one sentence.
 */
export async function exportPeerFiles(run: Run | undefined, selected: SelectedModel | undefined): Promise<PeerFiles> {
  const { contents, baseName } = await modelContents(run, selected);
  const kind = contents.metadata.architecture.kind;
  if (kind === 'gaussian') throw new TrainingError("ReinFlow's and DPPO's formats hold flow and diffusion policies of their MLP layouts, and this model is a Gaussian policy");
  const format = kind === 'diffusion' ? 'dppo' : 'reinflow';
  const source = { name: baseName, architecture: flowArchitectureOf(contents.metadata), tensors: contents.tensors, metadata: contents.metadata, reference: contents.reference };
  const exported = format === 'dppo' ? dppoExport(source) : reinflowExport(source);
  return {
    baseName,
    format,
    pt: writeTorchCheckpoint(exported.checkpoint, { label: `${baseName}.pt`, archiveName: baseName }),
    normalization: writeNpz(exported.normalization, { label: 'normalization.npz' }),
    notes: exported.notes,
  };
}
