/** The files of a run: export (.flowtune and tfjs) and the IndexedDB autosave, both with optimizer state. */
import { encodeFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { bundleContents } from '../../src/core/checkpoint/policy-checkpoint';
import type { FlowtuneContents } from '../../src/core/checkpoint/checkpoint-writer';
import { exportTfjs } from '../../src/core/checkpoint/tfjs-format';
import { cloneConfig } from '../../src/core/config';
import type { PolicyBundle } from '../../src/core/rl/policy-bundle';
import type { PpoTrainer } from '../../src/core/rl/trainer';
import type { ModelExport, SavedRunSummary } from '../../src/protocol/trainer-api';
import { writeSavedRun } from './autosave-store';

export interface RunParts {
  trainer: PpoTrainer;
  bundle: PolicyBundle;
}

/** Weights, normalizers, config, optimizer moments and the last eval summary of a run. */
export async function runContents({ trainer, bundle }: RunParts): Promise<FlowtuneContents> {
  const evalSummary = trainer.lastEval
    ? { success_rate: trainer.lastEval.successRate, mean_return: trainer.lastEval.meanReturn, mean_length: trainer.lastEval.meanLength }
    : undefined;
  return bundleContents({ bundle, task: trainer.config.task, stage: 'ppo', config: trainer.config, progress: await trainer.progress(), evalSummary });
}

export async function exportRun(run: RunParts): Promise<ModelExport> {
  const contents = await runContents(run);
  const { modelJson, weightsBin } = exportTfjs(contents, { weightsFileName: 'model.weights.bin' });
  return { flowtune: encodeFlowtune(contents), modelJson, weightsBin, baseName: `${run.trainer.config.task}-ppo-it${run.trainer.iteration}` };
}

/** Overwrites the autosave with the run as it is now. */
export async function autosaveRun(run: RunParts): Promise<SavedRunSummary> {
  const { trainer } = run;
  const checkpoint = encodeFlowtune(await runContents(run));
  const summary: SavedRunSummary = { task: trainer.config.task, iteration: trainer.iteration, envSteps: trainer.envSteps, savedAt: Date.now(), records: trainer.history.length };
  await writeSavedRun({ summary, config: cloneConfig(trainer.config), checkpoint, history: [...trainer.history] });
  return summary;
}
