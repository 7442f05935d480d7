import { decodeFileContents, parseCheckpointFile } from '../../src/core/run/open-checkpoint';
import type { FlowtuneContents } from '../../src/core/checkpoint/checkpoint-writer';
import { encodeFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { exportTfjs } from '../../src/core/checkpoint/tfjs-format';
import { TrainingError } from '../../src/core/errors';
import type { Run } from '../../src/core/run/run';
import type { ModelExport } from '../../src/protocol/trainer-api';
import type { SelectedModel } from './model-selection';

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
  if (run) return asFiles(await run.contents(), `${run.config.task}-ppo-it${run.iteration}`);
  if (!selected) throw new TrainingError('there is no model to export: drop a checkpoint in, or train one first');
  // The file was validated when it was selected; its own contents are copied whole, as `npm run export` does.
  const decoded = decodeFileContents(parseCheckpointFile(selected.files));
  return asFiles(decoded, selected.info.source.replace(/^.*\//, '').replace(/\.(flowtune|json|tfjs\.zip)$/, ''));
}
