/** The studio's Export → files: the run or the selected checkpoint as a .flowtune and as Flowtune's tfjs weights manifest. */
import { decodeFileContents, parseCheckpointFile, type CheckpointFiles } from '../run/open-checkpoint';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { exportTfjs } from '../checkpoint/tfjs-format';
import { TrainingError } from '../errors';
import type { Run } from '../run/run';
import type { ModelExport } from '../../protocol/trainer-api';

const WEIGHTS_FILE = 'model.weights.bin';

function asFiles(contents: FlowtuneContents, baseName: string): ModelExport {
  const { modelJson, weightsBin } = exportTfjs(contents, { weightsFileName: WEIGHTS_FILE });
  return { flowtune: encodeFlowtune(contents), modelJson, weightsBin, weightsFileName: WEIGHTS_FILE, baseName };
}

/**
 * The run as it is now, or with no run the selected checkpoint as its file holds it, as a
 * .flowtune and as Flowtune's tfjs weights manifest (weights and optimizer state).
 */
export async function exportModelFiles(run: Run | undefined, selected: { files: CheckpointFiles; info: { source: string } } | undefined): Promise<ModelExport> {
  if (run) return asFiles(await run.contents(), `${run.config.task}-ppo-it${run.iteration}`);
  if (!selected) throw new TrainingError('there is no model to export: drop a checkpoint in, or train one first');
  // The file was validated when it was selected; its own contents are copied whole, as `npm run export` does.
  const decoded = decodeFileContents(parseCheckpointFile(selected.files));
  return asFiles(decoded, selected.info.source.replace(/^.*\//, '').replace(/\.(flowtune|json|tfjs\.zip|pth?)$/, ''));
}
