import { encodeFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { exportTfjs } from '../../src/core/checkpoint/tfjs-format';
import { TrainingError } from '../../src/core/errors';
import type { Run } from '../../src/core/run/run';
import type { ModelExport } from '../../src/protocol/trainer-api';

/** The run as it is now, as a .flowtune and as Flowtune's tfjs weights manifest (weights and optimizer state). */
export async function exportRunModel(run: Run | undefined): Promise<ModelExport> {
  if (!run) throw new TrainingError('there is no run to export yet: press Train first');
  const contents = await run.contents();
  const { modelJson, weightsBin } = exportTfjs(contents, { weightsFileName: 'model.weights.bin' });
  return { flowtune: encodeFlowtune(contents), modelJson, weightsBin, baseName: `${run.config.task}-ppo-it${run.iteration}` };
}
